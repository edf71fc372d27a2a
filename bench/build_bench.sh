#!/usr/bin/env bash
# End-to-end build throughput: `cronista build` over a JSONL collection (by
# default ../shared/data/raw, the raw Portuguese corpus) on 2 analysis
# threads pinned to 2 cores, into a fresh database each run. Reports the best
# of RUNS runs as MB/s of input and documents/s (wall clock), with the CPU
# seconds used and the machine's load average, since a loaded machine slows
# the wall clock but not the CPU time (MB per CPU second is the figure that
# survives a busy machine; with two idle cores the wall-clock rate approaches
# twice it, less the single writer thread's share). Target: >= 15 MB/s.
#
#   bench/build_bench.sh [INPUT]     env: CRONISTA (binary), THREADS (2), RUNS (3),
#                                         BUILD_ARGS (extra build options)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${CRONISTA:-$here/build/cronista}"
input="${1:-$here/../shared/data/raw}"
threads="${THREADS:-2}"
runs="${RUNS:-3}"
[[ -x "$bin" ]] || { echo "build_bench: no cronista binary at $bin (build it first)" >&2; exit 1; }
[[ -e "$input" ]] || { echo "build_bench: no input at $input" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bytes=$(find "$input" -type f \( -name '*.jsonl' -o -name '*.jsonl.gz' \) -print0 | xargs -0 cat | wc -c)
docs=$(find "$input" -type f -name '*.jsonl' -print0 | xargs -0 cat | grep -c . || true)
cores="0-$((threads - 1))"
pin=()
command -v taskset >/dev/null && pin=(taskset -c "$cores")

best=""
for i in $(seq 1 "$runs"); do
  rm -f "$tmp"/b.db*
  load=$(cut -d' ' -f1 /proc/loadavg)
  TIMEFORMAT='%R %U %S'
  t=$( { time "${pin[@]}" "$bin" build --input "$input" --format jsonl --db "$tmp/b.db" \
           --threads "$threads" --quiet ${BUILD_ARGS:-} 2>"$tmp/err" ; } 2>&1 )
  read -r wall user sys <<<"$t"
  tail -1 "$tmp/err" >&2
  line=$(awk -v b="$bytes" -v d="$docs" -v w="$wall" -v u="$user" -v s="$sys" -v l="$load" 'BEGIN {
    printf "%.2f MB/s  %.0f docs/s  (%.1f MB, %d docs, %.2f s wall, %.2f s CPU = %.1f MB per CPU second, load %.2f)",
           b / 1e6 / w, d / w, b / 1e6, d, w, u + s, b / 1e6 / (u + s), l }')
  echo "run $i: $line"
  w_best=$(awk -v w="$wall" -v b="${best_wall:-1e99}" 'BEGIN { print (w < b) ? 1 : 0 }')
  if [[ "$w_best" == 1 ]]; then best_wall="$wall"; best="$line"; fi
done
echo "best: $best"
echo "db: $(sqlite3 "$tmp/b.db" 'SELECT count(*) FROM documents') documents, $(sqlite3 "$tmp/b.db" 'SELECT count(*) FROM expressions') expressions" 2>/dev/null || true
