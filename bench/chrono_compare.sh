#!/usr/bin/env bash
# Throughput of cronista's tagger against chrono-node's Portuguese parser
# (chrono.pt.parse) on the same text: the raw corpus in ../shared/data/raw (or
# $CRONISTA_SHARED_DATA/raw), one paragraph per line. chrono-node is installed
# with npm into a temporary folder, removed at exit. Both figures are MB of
# text per CPU second of one thread; the expressions found are printed too.
#
#   bench/chrono_compare.sh [build-dir]      (default: build)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$here/build}"
data="${CRONISTA_SHARED_DATA:-$here/../shared/data}"
raw="$data/raw"
[[ -d "$raw" ]] || { echo "chrono_compare: no raw corpus in '$raw'" >&2; exit 1; }
[[ -x "$build/tagger_bench" ]] || { echo "chrono_compare: '$build/tagger_bench' not built (cmake --build $build --target tagger_bench)" >&2; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "chrono_compare: node and npm are needed" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# One paragraph per line, from every "text" of every JSONL file.
node - "$raw" > "$tmp/paragraphs.txt" <<'JS'
const fs = require('fs'), path = require('path');
const dir = process.argv[2];
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.jsonl')).sort()) {
  for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const text = JSON.parse(line).text || '';
    for (const p of text.split(/\n/)) {
      const q = p.replace(/\s+/g, ' ').trim();
      if (q) process.stdout.write(q + '\n');
    }
  }
}
JS
echo "chrono_compare: $(wc -l < "$tmp/paragraphs.txt") paragraphs, $(( $(wc -c < "$tmp/paragraphs.txt") / 1000000 )) MB" >&2

echo "chrono_compare: installing chrono-node with npm" >&2
(cd "$tmp" && npm init -y >/dev/null 2>&1 && npm install --silent --no-audit --no-fund chrono-node >/dev/null 2>&1) \
  || { echo "chrono_compare: npm install chrono-node failed" >&2; exit 1; }

node - "$tmp/paragraphs.txt" "$tmp/node_modules/chrono-node" <<'JS'
const fs = require('fs');
const chrono = require(process.argv[3]);
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(l => l.length > 0);
const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8'), 0);
const ref = new Date(2010, 5, 15);
chrono.pt.parse(lines[0] || 'hoje', ref);  // warm-up
const t0 = process.cpuUsage();
let found = 0;
for (const l of lines) found += chrono.pt.parse(l, ref).length;
const cpu = process.cpuUsage(t0);
const seconds = (cpu.user + cpu.system) / 1e6;
console.log(`chrono-node pt: ${(bytes / 1e6 / seconds).toFixed(1)} MB/s (${found} expressions, ${seconds.toFixed(2)} CPU s)`);
JS

CRONISTA_BENCH_TEXT="$tmp/paragraphs.txt" "$build/tagger_bench" --benchmark_min_time=2 --benchmark_format=json 2>/dev/null \
  | node -e '
let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
  const b = JSON.parse(s).benchmarks[0];
  const mb = b["MB/s"], perMB = b["expressions/MB"];
  console.log(`cronista:       ${mb.toFixed(1)} MB/s (${perMB.toFixed(0)} expressions per MB)`);
});'
