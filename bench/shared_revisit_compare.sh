#!/usr/bin/env bash
# Revisits in a shared crawl against one process, on the living sample web
# (docs/living-web.md): `cronista crawl --revisit` alone at --fetch-rate R,
# then two workers sharing one crawl through Redis (a redis-server on a unix
# socket, started by the script) at R/2 each, so that the whole crawl has
# the same budget, each against a fresh server of the same living web, with
# the same per-host gap. `eval-revisit` scores each server's request log
# over the same window (after --warmup seconds, to the end of --run-for).
# Prints one row per run: time-averaged freshness and age, discovery latency
# p90 of the articles published in the window, and the share of them fetched;
# and the smallest gap between two requests to one host.
#
#   bench/shared_revisit_compare.sh                   seed 1 and seed 7, 300 s each
#   bench/shared_revisit_compare.sh --seeds "1" --run-for 120 --warmup 40 --pages 200
#
# Options: --pages N (default 300), --seeds "S…" (default "1 7"), --run-for S
# (default 300), --warmup S (default 90), --budget R (requests/s over the
# crawl, default 10), --delay-ms D (default 100), --policy P (default
# optimal), --port P (default 18690), --keep. Needs build/cronista
# (CRONISTA_BIN overrides it), redis-server and redis-cli.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${CRONISTA_BIN:-$here/build/cronista}"
pages=300
seeds="1 7"
run_for=300
warmup=90
budget=10
delay_ms=100
policy=optimal
port=18690
keep=0
while (($#)); do
  case "$1" in
    --pages) pages="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --run-for) run_for="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --delay-ms) delay_ms="$2"; shift 2 ;;
    --policy) policy="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "shared_revisit_compare: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "shared_revisit_compare: $bin not found; run scripts/setup first" >&2; exit 1; }
for tool in redis-server redis-cli; do
  command -v "$tool" >/dev/null || { echo "shared_revisit_compare: $tool not found; run scripts/setup" >&2; exit 1; }
done
((warmup < run_for)) || { echo "shared_revisit_compare: --warmup must be shorter than --run-for" >&2; exit 2; }

work="$(mktemp -d /tmp/cronista-shared-revisit.XXXXXX)"
server_pid=""
redis_pid=""
stop_pid() {
  if [[ -n "$1" ]]; then
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
  fi
}
cleanup() {
  stop_pid "$server_pid"
  stop_pid "$redis_pid"
  if ((keep)); then echo "shared_revisit_compare: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

sock="$work/redis.sock"
redis-server --port 0 --unixsocket "$sock" --unixsocketperm 700 --dir "$work" --save '' --appendonly no \
  >"$work/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 1 100); do redis-cli -s "$sock" ping >/dev/null 2>&1 && break; sleep 0.05; done
redis-cli -s "$sock" ping >/dev/null 2>&1 || { echo "shared_revisit_compare: redis-server did not start" >&2; exit 1; }

# The figures of the measured run from eval-revisit's figures.csv.
figures() {  # CSV
  python3 - "$1" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["run"] != "measured" or r["class"] != "all":
        continue
    published, never = int(r["published"] or 0), int(r["never"] or 0)
    fetched = f"{(published - never) / published:.3f}" if published else "-"
    print(f'{float(r["freshness"]):.4f} {float(r["age_s"]):.1f} {r["latency_p90_s"] or "-"} {fetched}')
    break
EOF
}

# The smallest gap in ms between two requests to one host in a request log
# (lines "TIME_MS HOST PATH …" as `sample-web serve --request-log` writes them).
smallest_gap() {  # LOG
  python3 - "$1" <<'EOF'
import sys
last, least = {}, None
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 2:
        continue
    try:
        t = float(f[0])
    except ValueError:
        continue
    h = f[1]
    if h in last:
        gap = t - last[h]
        least = gap if least is None else min(least, gap)
    last[h] = t
print("-" if least is None else f"{least:.0f}")
EOF
}

serve() {  # WEB LOG
  rm -f "$work/ready"
  "$bin" sample-web serve --root "$1" --living --request-log "$2" --ready-file "$work/ready" 2>"$work/serve.log" &
  server_pid=$!
  for _ in $(seq 1 200); do [[ -s "$work/ready" ]] && break; sleep 0.05; done
  [[ -s "$work/ready" ]] || { echo "shared_revisit_compare: the server did not start" >&2; cat "$work/serve.log" >&2; exit 1; }
}

for seed in $seeds; do
  web="$work/web-$seed"
  echo "shared_revisit_compare: seed $seed: generating a living web of $pages pages" >&2
  "$bin" sample-web generate --out "$web" --pages "$pages" --seed "$seed" --port "$port" --living \
    --duration "$run_for" 2>"$work/generate-$seed.log"
  seeds_file="$web/collection.txt"
  python3 -c '
import json, sys
for line in open(sys.argv[1]).read().splitlines()[1:]:
    page = json.loads(line)
    if "url" in page and "published" not in page:
        print(page["url"])' "$web/living.jsonl" >"$seeds_file"
  common=(--mode general --from 2000 --to 2030 --seeds "$seeds_file" --quiet --revisit --revisit-policy "$policy"
          --run-for "${run_for}s" --delay-ms "$delay_ms")

  echo "shared_revisit_compare: seed $seed: one process for ${run_for}s" >&2
  serve "$web" "$web/requests-lone.log"
  "$bin" crawl "${common[@]}" --db "$web/lone.db" --fetch-rate "$budget" 2>"$work/lone-$seed.log" ||
    { cat "$work/lone-$seed.log" >&2; exit 1; }
  stop_pid "$server_pid"; server_pid=""

  echo "shared_revisit_compare: seed $seed: two workers for ${run_for}s" >&2
  serve "$web" "$web/requests-two.log"
  half=$(python3 -c "print($budget / 2)")
  pids=()
  for w in a b; do
    "$bin" crawl "${common[@]}" --db "$web/two-$w.db" --fetch-rate "$half" --frontier "unix://$sock" \
      --crawl-id "revisit-$seed" 2>"$work/two-$seed-$w.log" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || { cat "$work"/two-"$seed"-*.log >&2; exit 1; }; done
  stop_pid "$server_pid"; server_pid=""

  echo
  echo "## seed $seed: $pages pages, budget $budget requests/s, gap $delay_ms ms, window ${warmup}..${run_for} s"
  printf '%-26s %10s %10s %10s %10s %12s\n' run freshness age_s p90_s fetched smallest_gap_ms
  for run in lone two; do
    "$bin" eval-revisit --truth "$web/living.jsonl" --log "$web/requests-$run.log" --window "$warmup..$run_for" \
      --out "$web/eval-$run" >/dev/null 2>"$work/eval-$seed-$run.log"
    read -r f a p s < <(figures "$web/eval-$run/figures.csv")
    label=$([[ $run == lone ]] && echo "one process" || echo "two workers, one Redis")
    printf '%-26s %10s %10s %10s %10s %12s\n' "$label" "$f" "$a" "$p" "$s" "$(smallest_gap "$web/requests-$run.log")"
  done
done
