#!/usr/bin/env bash
# Time and peak memory of `cronista segment --html` on generated hostile
# pages (src/temporal/html_limits.h): deep nesting (20k to 1M nested divs),
# nesting through the adoption agency (<a><div>), formatting left open in
# every paragraph, 100k attributes on one tag, and a 35 MB page of a million
# links. Each line: page, input MB, seconds, peak RSS in MB (/usr/bin/time
# -v). Every run is capped at 120 s (reported as "timeout").
#
#   bench/hostile_html.sh
#   CRONISTA_BIN=/other/build/cronista bench/hostile_html.sh   # compare builds
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${CRONISTA_BIN:-$here/build/cronista}"
[[ -x "$bin" ]] || { echo "hostile_html.sh: no binary at $bin (build it first)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'EOF'
import sys
w = sys.argv[1]
def page(name, body):
    with open(f"{w}/{name}.html", "w") as f:
        f.write("<html><body>" + body + "</body></html>")
for n in (20000, 80000, 100000, 1000000):
    page(f"nested-div-{n}", "<div>" * n + "Em maio de 1944." + "</div>" * n)
page("a-div-100000", '<a href="/x"><div>' * 100000 + "Em maio de 1944.")
page("formatting-3000", "".join(f"<p><b id={i}>Em maio de 1944.</p>" for i in range(3000)))
page("attributes-100000", "<div " + " ".join(f"a{i}=1" for i in range(100000)) + ">Em maio de 1944.</div>")
page("links-1000000", "<ul>" + "".join(f'<li><a href="/a/{i}">{i}</a>\n' for i in range(1000000)) + "</ul>")
EOF

printf '%-22s %9s %9s %9s\n' page input_MB seconds peak_MB
for f in "$work"/*.html; do
  name="$(basename "$f" .html)"
  size=$(stat -c %s "$f")
  if /usr/bin/time -v -o "$work/time.txt" timeout 120 "$bin" segment --html "$f" > /dev/null 2>&1; then
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
  else
    secs=timeout
    rss=-
  fi
  printf '%-22s %9.1f %9s %9s\n' "$name" "$(echo "$size / 1048576" | bc -l)" "$secs" "$rss"
done
