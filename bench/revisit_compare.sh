#!/usr/bin/env bash
# Revisit policies compared on the living sample web (docs/living-web.md):
# `cronista crawl --revisit` with each policy against a fresh server of the
# same living web (its clock starts with each crawl), at the same budget
# (--fetch-rate) and per-host gap (--delay-ms); then `eval-revisit` scores
# each server's request log and replays the reference policies (the
# optimum with the true rates, uniform, Nutch and StormCrawler with a
# main-content hash, the four classes, two tiers, and the crawler's own
# schedule without the crawl, `estimated`) at the same budget and gap.
# The default budget binds (docs/living-web.md, "Where the budget binds"):
# 4 requests/s for a collection of about 356 pages (200 content pages), a
# revisit of every page every 90 s under uniform, so that the policies
# differ by more than the spread between runs; at 10 requests/s nearly
# every page is fresh whatever the policy. The crawl starts from every URL
# of the collection (the living truth's pages, not the articles published
# later, which the crawl must find on their hubs); the window scored starts
# once the collection is crawled (--warmup seconds after the start: about
# 125 s at the default budget, 265 s at 2 requests/s) and ends with the
# crawl (--run-for).
# Prints one row per run: time-averaged freshness and age, discovery
# latency p90 of the articles published in the window, the share of
# them fetched and the requests in the window (at the server), the
# load average of the machine when the crawl ended and the crawl's CPU
# seconds (user + system, all its threads); then the measured
# freshness over the simulated optimum's; then how many of the changes each
# crawl downloaded it called changes, and how many unchanged downloads it
# called changed (eval-revisit --db);
# then, for each crawl, the error of log λ of the learned prior and of the
# constant prior from the first fetch alone (eval-rate-prior, cross-validated
# over the crawl's pages).
#
#   bench/revisit_compare.sh                          seed 1 and seed 7, 600 s each, 4 requests/s
#   bench/revisit_compare.sh --budget 10 --warmup 120 the generous budget (every policy near 0.97)
#   bench/revisit_compare.sh --seeds "1" --run-for 300 --pages 300
#   bench/revisit_compare.sh --policies "optimal uniform"
#   bench/revisit_compare.sh --keep                   keep the work folder
#   bench/revisit_compare.sh --policies optimal --workers 2
#                                   also the first policy as 2 workers of one
#                                   shared crawl (crawl --frontier, a
#                                   redis-server on a unix socket started here),
#                                   each given the whole --budget: the crawl's
#                                   rate, paced for all workers in Redis
#   bench/revisit_compare.sh --rate-prior constant    crawl with the constant prior
#
# Options: --pages N (content pages of the web, default 200), --seeds "S…"
# (default "1 7"), --run-for S (default 600), --warmup S (default 180),
# --budget R (requests/s, default 4), --delay-ms D (default 100),
# --policies "P…" (default: optimal uniform proportional classes adaptive),
# --port P (default 18590), --workers N (default 0: no shared run), --rate-prior
# learned|constant (default: the crawl's). Needs build/cronista (CRONISTA_BIN
# overrides it); with --workers, redis-server.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${CRONISTA_BIN:-$here/build/cronista}"
pages=200
seeds="1 7"
run_for=600
warmup=180
budget=4
delay_ms=100
policies="optimal uniform proportional classes adaptive"
port=18590
workers=0
keep=0
rate_prior=""
while (($#)); do
  case "$1" in
    --pages) pages="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --run-for) run_for="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --delay-ms) delay_ms="$2"; shift 2 ;;
    --policies) policies="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --rate-prior) rate_prior="$2"; shift 2 ;;
    -h|--help) sed -n '2,48p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "revisit_compare: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "revisit_compare: $bin not found; run scripts/setup first" >&2; exit 1; }
prior_args=()
[[ -n "$rate_prior" ]] && prior_args=(--rate-prior "$rate_prior")
((warmup < run_for)) || { echo "revisit_compare: --warmup must be shorter than --run-for" >&2; exit 2; }

work="$(mktemp -d /tmp/cronista-revisit-compare.XXXXXX)"
server_pid=""
redis_pid=""
stop_server() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
cleanup() {
  stop_server
  if [[ -n "$redis_pid" ]]; then kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
  if ((keep)); then echo "revisit_compare: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# A fresh server of the living web in WEB, logging requests to WEB/requests-RUN.log.
serve() {  # WEB RUN
  rm -f "$1/requests-$2.log" "$work/ready"
  "$bin" sample-web serve --root "$1" --living --request-log "$1/requests-$2.log" --ready-file "$work/ready" \
    2>"$work/serve-$seed-$2.log" &
  server_pid=$!
  for _ in $(seq 1 200); do [[ -s "$work/ready" ]] && break; sleep 0.05; done
  [[ -s "$work/ready" ]] || { echo "revisit_compare: the server did not start" >&2; cat "$work/serve-$seed-$2.log" >&2; exit 1; }
}

runs="$policies"
declare -A load  # the 1-minute load average when each crawl ended
declare -A cpu   # each crawl's CPU seconds (user + system; a shared crawl's workers together)
TIMEFORMAT='%U %S'
if ((workers > 0)); then
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    { echo "revisit_compare: --workers needs redis-server and redis-cli; run scripts/setup" >&2; exit 1; }
  sock="$work/redis.sock"
  redis-server --port 0 --unixsocket "$sock" --unixsocketperm 700 --dir "$work" --save '' --appendonly no \
    >"$work/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 1 100); do redis-cli -s "$sock" ping >/dev/null 2>&1 && break; sleep 0.05; done
  redis-cli -s "$sock" ping >/dev/null 2>&1 || { echo "revisit_compare: redis-server did not start" >&2; exit 1; }
  shared_policy="${policies%% *}"
  shared_run="$shared_policy-x$workers"
  runs="$policies $shared_run"
fi

# The figures of one run from eval-revisit's figures.csv: freshness, age,
# latency p90, share of new articles fetched, requests in the window
# (columns found by name).
figures() {  # CSV RUN-NAME
  python3 - "$1" "$2" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["run"] != sys.argv[2] or r["class"] != "all":
        continue
    published, never = int(r["published"] or 0), int(r["never"] or 0)
    fetched = f"{(published - never) / published:.3f}" if published else "-"
    print(f'{float(r["freshness"]):.4f} {float(r["age_s"]):.1f} {r["latency_p90_s"] or "-"} {fetched} {r["requests"] or "-"}')
    break
EOF
}

for seed in $seeds; do
  web="$work/web-$seed"
  echo "revisit_compare: seed $seed: generating a living web of $pages pages, $run_for s of changes" >&2
  "$bin" sample-web generate --out "$web" --pages "$pages" --seed "$seed" --port "$port" --living \
    --duration "$run_for" 2>"$work/generate-$seed.log"
  seeds_file="$web/collection.txt"
  # The collection is crawled once from its URL list (every page of the
  # living truth), so that the window measures revisits and the discovery
  # of new articles, not the first discovery of the static web.
  python3 -c '
import json, sys
for line in open(sys.argv[1]).read().splitlines()[1:]:
    page = json.loads(line)
    if "url" in page and "published" not in page:  # articles appear later, found on their hubs
        print(page["url"])' "$web/living.jsonl" >"$seeds_file"

  for policy in $policies; do
    serve "$web" "$policy"
    echo "revisit_compare: seed $seed: crawl --revisit --revisit-policy $policy for ${run_for}s" >&2
    # Bash's `time` (TIMEFORMAT: user and system seconds) gives the crawl's CPU.
    { time "$bin" crawl --mode general --from 2000 --to 2030 --seeds "$seeds_file" --db "$web/$policy.db" --quiet \
      --revisit --revisit-policy "$policy" "${prior_args[@]}" --run-for "${run_for}s" --fetch-rate "$budget" --delay-ms "$delay_ms" \
      2>"$work/crawl-$seed-$policy.log"; } 2>"$work/cpu-$seed-$policy.txt" || { cat "$work/crawl-$seed-$policy.log" >&2; exit 1; }
    stop_server
    load["$policy"]="$(cut -d' ' -f1 /proc/loadavg)"
    cpu["$policy"]="$(awk '{printf "%.1f", $1 + $2}' "$work/cpu-$seed-$policy.txt")"
    grep -E "^(pages downloaded|requests|stopped)" "$work/crawl-$seed-$policy.log" | sed "s/^/  $policy: /" >&2
  done
  if ((workers > 0)); then
    serve "$web" "$shared_run"
    echo "revisit_compare: seed $seed: $workers workers of one crawl, --revisit-policy $shared_policy, ${run_for}s" >&2
    pids=()
    for w in $(seq 1 "$workers"); do
      # Each worker timed as a lone crawl is (bash's `time`, in a subshell of its own).
      ( time "$bin" crawl --mode general --from 2000 --to 2030 --seeds "$seeds_file" --db "$web/$shared_run-$w.db" --quiet \
        --revisit --revisit-policy "$shared_policy" --run-for "${run_for}s" --fetch-rate "$budget" --delay-ms "$delay_ms" \
        --frontier "unix://$sock" --crawl-id "revisit-$seed" 2>"$work/crawl-$seed-$shared_run-$w.log" ) \
        2>"$work/cpu-$seed-$shared_run-$w.txt" &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || { cat "$work/crawl-$seed-$shared_run"-*.log >&2; exit 1; }; done
    stop_server
    load["$shared_run"]="$(cut -d' ' -f1 /proc/loadavg)"
    cpu["$shared_run"]="$(cat "$work/cpu-$seed-$shared_run"-*.txt | awk '{s += $1 + $2} END {printf "%.1f", s}')"
  fi

  # Every crawl's log scored over the same window, and the references simulated once.
  echo "revisit_compare: seed $seed: eval-revisit over ${warmup}..${run_for} s" >&2
  for policy in $runs; do
    dbs=()
    if ((workers > 0)) && [[ $policy == "$shared_run" ]]; then
      for w in $(seq 1 "$workers"); do dbs+=(--db "$web/$shared_run-$w.db"); done
    else
      dbs=(--db "$web/$policy.db")
    fi
    "$bin" eval-revisit --truth "$web/living.jsonl" --log "$web/requests-$policy.log" --window "$warmup..$run_for" \
      "${dbs[@]}" --out "$web/eval-$policy" >/dev/null 2>"$work/eval-$seed-$policy.log"
  done
  "$bin" eval-revisit --truth "$web/living.jsonl" --window "$warmup..$run_for" --budget "$budget" \
    --delay-ms "$delay_ms" --simulate optimal --simulate uniform --simulate proportional --simulate nutch-main \
    --simulate storm-main --simulate barbosa --simulate two-tiers --simulate estimated --out "$web/eval-sim" >/dev/null \
    2>"$work/eval-$seed-sim.log"

  echo
  echo "## seed $seed: $pages pages, budget $budget requests/s, gap $delay_ms ms, window ${warmup}..${run_for} s"
  printf '%-22s %10s %10s %12s %10s %10s %6s %6s\n' run freshness age_s p90_s fetched requests load cpu_s
  read -r opt_f _ < <(figures "$web/eval-sim/figures.csv" optimal)
  for policy in $runs; do
    read -r f a p s n < <(figures "$web/eval-$policy/figures.csv" measured)
    printf '%-22s %10s %10s %12s %10s %10s %6s %6s\n' "crawl $policy" "$f" "$a" "$p" "$s" "$n" "${load[$policy]}" "${cpu[$policy]}"
  done
  for ref in optimal uniform proportional nutch-main storm-main barbosa two-tiers estimated; do
    read -r f a p s n < <(figures "$web/eval-sim/figures.csv" "$ref")
    printf '%-22s %10s %10s %12s %10s %10s\n' "simulated $ref" "$f" "$a" "$p" "$s" "$n"
  done
  # The smallest gap between two requests to one host, at the server, per crawl.
  for policy in $runs; do
    python3 - "$web/eval-$policy/summary.md" "$policy" <<'EOF'
import sys
gaps = []
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 4 and cells[0] == "measured" and cells[3].isdigit():
        gaps.append(int(cells[3]))
print(f"crawl {sys.argv[2]}: smallest gap at a host {min(gaps) if gaps else '-'} ms")
EOF
  done
  for policy in $runs; do
    read -r f _ < <(figures "$web/eval-$policy/figures.csv" measured)
    python3 -c "import sys; f, o = sys.argv[1:3]; print(f'crawl {sys.argv[3]}: {float(f) / float(o):.3f} x the optimum with true rates')" \
      "$f" "$opt_f" "$policy" 2>/dev/null || true
  done
  # The crawl's change verdicts against the versions served (every download
  # of a page downloaded before, over the whole crawl).
  for policy in $runs; do
    python3 - "$web/eval-$policy/changes.csv" "$policy" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["class"] == "all":
        print(f'crawl {sys.argv[2]}: changes called {r["called_changed"]} of {r["changed"]} (recall {float(r["recall"]):.3f}), '
              f'unchanged called changed {r["called_unchanged_changed"]} of {r["unchanged"]}')
EOF
  done
  # The prior's error of log λ, from each crawl's first fetches and histories.
  for policy in $policies; do
    echo
    echo "### seed $seed, crawl $policy: error of log λ of the prior (all pages; by class in $web/prior-$policy)"
    "$bin" eval-rate-prior --truth "$web/living.jsonl" --db "$web/$policy.db" --out "$web/prior-$policy" \
      2>"$work/prior-$seed-$policy.log" | grep -E '^\| (prior|---|[a-z ]+ \| all)' || cat "$work/prior-$seed-$policy.log" >&2
  done
done
