#!/usr/bin/env bash
# The whole `cronista tag` process against a whole chrono-node process on the
# same ~24 MB of Portuguese, in the same run: start-up, reading, tagging and
# writing the output all count.
#
# The text is every "text" of the raw corpus in ../shared/data/raw (or
# $CRONISTA_SHARED_DATA/raw), joined by blank lines into one document, built
# at run time into a temporary folder. cronista tags it as one document
# (`cronista tag --format json --dct 2010-06-15 FILE > out.json`); chrono-node
# (installed with npm into the temporary folder, removed at exit) parses it
# line by line with chrono.pt.parse and writes its results as JSON lines.
# Each program runs --runs times (default 3), alternately; the best run of
# each is reported, in wall-clock seconds and in CPU seconds (user + system,
# all threads: node's compiler and collector threads count too), as MB/s, and
# the ratio cronista/chrono-node of both. cronista runs with its default
# threads (the machine's hardware threads; chrono-node has one), and with
# --threads 1 too when given --one-thread (if it has the option), and with glibc's heap
# on transparent huge pages too when given --hugetlb (GLIBC_TUNABLES=glibc.malloc.hugetlb=1
# in its environment; a tunable read at start, which a user sets). Several build folders (two
# versions of cronista, say) run alternately in the same run.
#
#   bench/tag_process_compare.sh [--runs N] [--one-thread] [--hugetlb] [build-dir...]   (default: build)
set -euo pipefail

runs=3
builds=()
one_thread=0
hugetlb=0
while (($#)); do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --one-thread) one_thread=1 ;;
    --hugetlb) hugetlb=1 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) builds+=("$1") ;;
  esac
  shift
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
((${#builds[@]})) || builds=("$here/build")
data="${CRONISTA_SHARED_DATA:-$here/../shared/data}"
raw="$data/raw"
[[ -d "$raw" ]] || { echo "tag_process_compare: no raw corpus in '$raw'" >&2; exit 1; }
for build in "${builds[@]}"; do
  [[ -x "$build/cronista" ]] || { echo "tag_process_compare: '$build/cronista' not built (cmake --build $build --target cronista)" >&2; exit 1; }
done
command -v node >/dev/null && command -v npm >/dev/null || { echo "tag_process_compare: node and npm are needed" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

node - "$raw" > "$tmp/text.txt" <<'JS'
const fs = require('fs'), path = require('path');
const dir = process.argv[2];
const texts = [];
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.jsonl')).sort())
  for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
    if (line.trim()) texts.push(JSON.parse(line).text || '');
process.stdout.write(texts.join('\n\n') + '\n');
JS
bytes=$(wc -c < "$tmp/text.txt")
echo "tag_process_compare: one document of $bytes bytes, $(wc -l < "$tmp/text.txt") lines" >&2

echo "tag_process_compare: installing chrono-node with npm" >&2
(cd "$tmp" && npm init -y >/dev/null 2>&1 && npm install --silent --no-audit --no-fund chrono-node >/dev/null 2>&1) \
  || { echo "tag_process_compare: npm install chrono-node failed" >&2; exit 1; }
cat > "$tmp/chrono_tag.js" <<'JS'
// chrono-node as a command: the file in, one JSON line per expression out.
const fs = require('fs');
const chrono = require(process.argv[3]);
const ref = new Date(2010, 5, 15);
const out = [];
for (const line of fs.readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (!line) continue;
  for (const r of chrono.pt.parse(line, ref))
    out.push(JSON.stringify({index: r.index, text: r.text, start: r.start.date(), end: r.end ? r.end.date() : null}));
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
JS

# One run: "<wall seconds> <cpu seconds>" on stdout.
measure() {
  local out="$1"; shift
  local t
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" > "$out" 2>"$tmp/err"; } 2>&1 ) \
    || { echo "tag_process_compare: '$*' failed: $(cat "$tmp/err")" >&2; exit 1; }
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<< "$t"
}

best() { sort -n -k"$1" | head -1 | awk -v k="$1" '{ print $k }'; }

# The cronista variants: each build folder, with its default threads and,
# with --one-thread, with one.
names=(); commands=()
for build in "${builds[@]}"; do
  label="cronista"; ((${#builds[@]} > 1)) && label="cronista $build"
  names+=("$label"); commands+=("$build/cronista tag")
  if ((one_thread)) && "$build/cronista" tag --help 2>/dev/null | grep -q -- --threads; then
    names+=("$label --threads 1"); commands+=("$build/cronista tag --threads 1")
  fi
  if ((hugetlb)); then
    names+=("$label, huge pages"); commands+=("env GLIBC_TUNABLES=glibc.malloc.hugetlb=1 $build/cronista tag")
  fi
done
for k in "${!commands[@]}"; do : > "$tmp/cronista$k.times"; done
: > "$tmp/chrono.times"
for ((i = 0; i < runs; ++i)); do
  for k in "${!commands[@]}"; do
    # shellcheck disable=SC2086  # the command is words
    measure "$tmp/cronista$k.json" ${commands[$k]} --format json --dct 2010-06-15 "$tmp/text.txt" >> "$tmp/cronista$k.times"
  done
  measure "$tmp/chrono.jsonl" node "$tmp/chrono_tag.js" "$tmp/text.txt" "$tmp/node_modules/chrono-node" >> "$tmp/chrono.times"
done
count_json() { node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(j.expressions.length)' "$1"; }
found_chrono=$(wc -l < "$tmp/chrono.jsonl")

report() {  # name wall cpu found
  awk -v n="$1" -v w="$2" -v c="$3" -v b="$bytes" -v f="$4" \
    'BEGIN { printf "%-28s %6.2f MB/s wall (%.2f s), %6.2f MB/s CPU (%.2f s), %d expressions\n", n, b / 1e6 / w, w, b / 1e6 / c, c, f }'
}
nw=$(best 1 < "$tmp/chrono.times"); nc=$(best 2 < "$tmp/chrono.times")
echo "whole processes, best of $runs, $((bytes / 1000000)) MB as one document:"
for k in "${!commands[@]}"; do
  report "${names[$k]}" "$(best 1 < "$tmp/cronista$k.times")" "$(best 2 < "$tmp/cronista$k.times")" "$(count_json "$tmp/cronista$k.json")"
done
report "chrono-pt" "$nw" "$nc" "$found_chrono"
for k in "${!commands[@]}"; do
  awk -v n="${names[$k]}" -v cw="$(best 1 < "$tmp/cronista$k.times")" -v cc="$(best 2 < "$tmp/cronista$k.times")" -v nw="$nw" -v nc="$nc" \
    'BEGIN { printf "%s / chrono-node: %.2fx wall, %.2fx CPU (target >= 3x)\n", n, nw / cw, nc / cc }'
done
