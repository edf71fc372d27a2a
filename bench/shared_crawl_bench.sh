#!/usr/bin/env bash
# The cost of a shared frontier, in one run: on the loopback sample web
# (`sample-web serve`, 7 hosts), side by side for each web seed and each
# --delay-ms, the same temporal crawl (1939-1945, same seeds, same budget)
#   - alone (no --frontier),
#   - as one worker against Redis (`--frontier unix://…`),
#   - as three workers against Redis, started together,
# with Redis on a unix socket, started by this script in its work folder
# (no service, no persistence) and stopped at the end. The three run in
# turn, --runs times (default 3); each row gives the median wall seconds
# of each, the share of the lone crawl's throughput that one
# worker reaches (lone seconds / worker seconds), the pages the three
# workers downloaded together and the URLs downloaded by more than one of
# them. Then precision, scored by `eval-crawl` against the web's truth: at
# every page cut-off from 100 on, the three workers' shards merged by fetch
# time against the lone crawl of the same run (target: within 2 points), and
# a second lone crawl of the same run against the first (the noise of the
# comparison), and a lone crawl given the three workers' connections
# together (--connections 96: as many transfers and pages waiting for
# analysis as the three have) against the lone crawl: what that much
# parallelism costs without Redis (--no-wide leaves it out).
# With several runs, the same gaps between the precision curves averaged
# over the runs (mean_gap, mean_noise, mean_wide): a single run's order moves
# with the machine's timing, and the mean of several is what the crawl does;
# mean_noise is how far the mean curve of as many lone crawls moves by itself.
# Then
# Redis memory per million queued URLs (build/shared_frontier_bench: the
# crawl's add script, 1 million URLs over 5,000 hosts).
#
#   bench/shared_crawl_bench.sh                       seeds 1 and 7, delays 100 and 0 ms
#   bench/shared_crawl_bench.sh --seeds 7 --delays 100 --max-pages 600
#   bench/shared_crawl_bench.sh --urls 200000         a smaller memory run (0: none)
#   bench/shared_crawl_bench.sh --keep                keep the work folder (each run's
#                                                     databases in r<run>-s<seed>-d<delay>/,
#                                                     the last run's in the folder itself)
#
# Options: --pages N (pages of the sample web, default 2000), --max-pages N
# (budget of every crawl, default 300), --seeds "S…" (default "1 7"),
# --delays "D…" (default "100 0"), --port P (default 18630), --urls N,
# --runs N, --worker-connections N (each of the three workers' --connections,
# default 32 as the lone crawl's; 11 gives the three together about the lone
# crawl's 32), --no-wide.
# Needs build/cronista and build/shared_frontier_bench (CRONISTA_BIN and
# CRONISTA_BENCH_BIN override them), redis-server and sqlite3.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${CRONISTA_BIN:-$here/build/cronista}"
bench_bin="${CRONISTA_BENCH_BIN:-$here/build/shared_frontier_bench}"
pages=2000
max_pages=300
seeds="1 7"
delays="100 0"
port=18630
urls=1000000
runs=3
keep=0
worker_connections=32
wide=1
while (($#)); do
  case "$1" in
    --pages) pages="$2"; shift 2 ;;
    --max-pages) max_pages="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --delays) delays="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --urls) urls="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --worker-connections) worker_connections="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --no-wide) wide=0; shift ;;
    -h|--help) sed -n '2,44p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "shared_crawl_bench: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "shared_crawl_bench: $bin not found; run scripts/setup first" >&2; exit 1; }
((urls == 0)) || [[ -x "$bench_bin" ]] || { echo "shared_crawl_bench: $bench_bin not found; build it" >&2; exit 1; }
for tool in redis-server redis-cli sqlite3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "shared_crawl_bench: $tool not found (scripts/setup)" >&2; exit 1; }
done

work="$(mktemp -d /tmp/cronista-shared-bench.XXXXXX)"
sock="$work/redis.sock"
server_pid=""
redis_pid=""
stop_pid() {  # a process this script started, if any
  [[ -n "$1" ]] || return 0
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  stop_pid "$server_pid"
  stop_pid "$redis_pid"
  ((keep)) && echo "shared_crawl_bench: kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

redis-server --port 0 --unixsocket "$sock" --unixsocketperm 700 --dir "$work" --save '' --appendonly no \
  >"$work/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 1 100); do redis-cli -s "$sock" ping >/dev/null 2>&1 && break; sleep 0.05; done
redis-cli -s "$sock" ping >/dev/null 2>&1 || { echo "shared_crawl_bench: redis-server did not start" >&2; cat "$work/redis.log" >&2; exit 1; }

now() { date +%s.%N; }
seconds() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$1" "$2"; }
median() { python3 -c 'import statistics, sys; print(f"{statistics.median(map(float, sys.argv[1:])):.2f}")' "$@"; }

# One crawl of the web of seed $1 with delay $2 into $3.db; extra options after.
crawl() {
  local seed="$1" delay="$2" name="$3"
  shift 3
  "$bin" crawl --from 1939 --to 1945 --seeds "$work/web-$seed/seeds-1939-1945.txt" --max-pages "$max_pages" \
    --delay-ms "$delay" --db "$work/$name.db" --quiet "$@" 2>"$work/$name.log" ||
    { echo "shared_crawl_bench: crawl $name failed:" >&2; cat "$work/$name.log" >&2; return 1; }
}
# The largest difference in precision, in points, between runs $1 and $2
# (run names in eval-crawl's curves.csv) at a page cut-off from 100 to the
# shorter run's end, and where; given several curves.csv files (one per run
# of the bench), between the curves averaged over them, at the cut-offs every
# file has: the comparison with the noise of single runs averaged out.
largest_gap() {
  python3 - "$@" <<'PY'
import csv, sys
a, b, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
sums = {a: {}, b: {}}
for path in paths:
    for row in csv.DictReader(open(path)):
        if row["run"] in sums:
            sums[row["run"]].setdefault(int(row["pages"]), []).append(float(row["precision"]))
k = len(paths)
mean = {r: {n: sum(v) / k for n, v in sums[r].items() if len(v) == k} for r in sums}
common = [n for n in mean[a] if n >= 100 and n in mean[b]]
if not common:
    print("-")
else:
    n = max(common, key=lambda n: abs(mean[a][n] - mean[b][n]))
    print(f"{100 * (mean[b][n] - mean[a][n]):+.1f}@{n}")
PY
}
# The precision of lone crawl $4 of run $3 ($4-$2-r$3.order) against the
# lone crawl of the same run, by eval-crawl into eval-$2-$4-r$3/.
against_lone() {
  local web="$1" tag="$2" run="$3" name="$4"
  "$bin" eval-crawl --truth "$web/truth.jsonl" --scope 1939-1945 --no-oracle \
    --order "$work/lone-$tag-r$run.order" --name lone --order "$work/$name-$tag-r$run.order" --name "$name" \
    --out "$work/eval-$tag-$name-r$run" >"$work/eval-$tag-$name-r$run.log" 2>&1 ||
    { echo "shared_crawl_bench: eval-crawl failed:" >&2; cat "$work/eval-$tag-$name-r$run.log" >&2; exit 1; }
}
downloads() { sqlite3 "$1" "SELECT COUNT(*) FROM pages WHERE error_kind IS NULL AND id NOT IN (SELECT page_id FROM redirects)"; }

rows=()
for seed in $seeds; do
  web="$work/web-$seed"
  echo "shared_crawl_bench: seed $seed: generating a sample web of $pages pages" >&2
  "$bin" sample-web generate --out "$web" --pages "$pages" --seed "$seed" --port "$port" >"$work/generate-$seed.log" 2>&1
  rm -f "$work/ready"
  "$bin" sample-web serve --root "$web" --port "$port" --ready-file "$work/ready" 2>"$work/serve-$seed.log" &
  server_pid=$!
  for _ in $(seq 1 200); do [[ -s "$work/ready" ]] && break; sleep 0.05; done
  [[ -s "$work/ready" ]] || { echo "shared_crawl_bench: the server did not start" >&2; cat "$work/serve-$seed.log" >&2; exit 1; }

  for delay in $delays; do
    lones=() ones=() threes=() gaps=() noises=() wides=() curves=() noise_curves=() wide_curves=()

    for run in $(seq 1 "$runs"); do
      tag="s$seed-d$delay"
      if ((keep && run > 1)); then  # the previous run's databases, kept for a look at single runs
        mkdir -p "$work/r$((run - 1))-$tag"
        mv "$work"/*-"$tag"*.db* "$work/r$((run - 1))-$tag/"
      else
        rm -f "$work"/*-"$tag"*.db*
      fi
      echo "shared_crawl_bench: seed $seed, --delay-ms $delay, run $run: lone crawl, one worker, three workers" >&2
      t0=$(now); crawl "$seed" "$delay" "lone-$tag" --order-out "$work/lone-$tag-r$run.order"; t1=$(now)
      lones+=("$(seconds "$t0" "$t1")")
      t0=$(now)
      crawl "$seed" "$delay" "one-$tag" --frontier "unix://$sock" --crawl-id "one-$tag-$run" --worker-id "one"
      t1=$(now)
      ones+=("$(seconds "$t0" "$t1")")
      t0=$(now)
      pids=()
      for w in 1 2 3; do
        crawl "$seed" "$delay" "three-$tag-w$w" --frontier "unix://$sock" --crawl-id "three-$tag-$run" --worker-id "w$w" \
          --connections "$worker_connections" &
        pids+=($!)
      done
      for p in "${pids[@]}"; do wait "$p"; done
      t1=$(now)
      threes+=("$(seconds "$t0" "$t1")")
      # Precision of this run's three workers against this run's lone crawl.
      "$bin" eval-crawl --truth "$web/truth.jsonl" --scope 1939-1945 --no-oracle \
        --order "$work/lone-$tag-r$run.order" --name lone \
        --order-db "$work/three-$tag-w1.db" --order-db "$work/three-$tag-w2.db" --order-db "$work/three-$tag-w3.db" \
        --name three --out "$work/eval-$tag-r$run" >"$work/eval-$tag-r$run.log" 2>&1 ||
        { echo "shared_crawl_bench: eval-crawl failed:" >&2; cat "$work/eval-$tag-r$run.log" >&2; exit 1; }
      gaps+=("$(largest_gap lone three "$work/eval-$tag-r$run/curves.csv")")
      curves+=("$work/eval-$tag-r$run/curves.csv")
      # A second lone crawl of this run: the noise of the comparison.
      crawl "$seed" "$delay" "lone2-$tag" --order-out "$work/lone2-$tag-r$run.order"
      against_lone "$web" "$tag" "$run" lone2
      noises+=("$(largest_gap lone lone2 "$work/eval-$tag-lone2-r$run/curves.csv")")
      noise_curves+=("$work/eval-$tag-lone2-r$run/curves.csv")
      if ((wide)); then
        # One process with the three workers' connections: the cost of the parallelism alone.
        crawl "$seed" "$delay" "wide-$tag" --connections 96 --order-out "$work/wide-$tag-r$run.order"
        against_lone "$web" "$tag" "$run" wide
        wides+=("$(largest_gap lone wide "$work/eval-$tag-wide-r$run/curves.csv")")
        wide_curves+=("$work/eval-$tag-wide-r$run/curves.csv")
      fi
    done
    lone=$(median "${lones[@]}") one=$(median "${ones[@]}") three=$(median "${threes[@]}")
    total=0
    for w in 1 2 3; do total=$((total + $(downloads "$work/three-$tag-w$w.db"))); done
    twice=$(for w in 1 2 3; do sqlite3 "$work/three-$tag-w$w.db" "SELECT DISTINCT url FROM pages"; done | sort | uniq -d | wc -l)
    share=$(python3 -c 'import sys; print(f"{100 * float(sys.argv[1]) / float(sys.argv[2]):.0f}%")' "$lone" "$one")
    mean_wide="-"
    ((wide)) && mean_wide="$(largest_gap lone wide "${wide_curves[@]}")"
    rows+=("$(printf '%-5s %6s %9s %9s %6s %9s %8s %6s  %-24s %-24s %-24s %-10s %-10s %s' "$seed" "$delay" "$lone" "$one" "$share" \
      "$three" "$total/$(downloads "$work/lone-$tag.db")" "$twice" "${gaps[*]}" "${noises[*]}" "${wides[*]:--}" \
      "$(largest_gap lone three "${curves[@]}")" "$(largest_gap lone lone2 "${noise_curves[@]}")" "$mean_wide")")
  done
  stop_pid "$server_pid"
  server_pid=""
done

echo
echo "## shared frontier cost: sample web of $pages pages, budget $max_pages, Redis on a unix socket, $(nproc) cores, median of $runs runs"
printf '%-5s %6s %9s %9s %6s %9s %8s %6s  %-24s %-24s %-24s %-10s %-10s %s\n' seed delay lone_s one_s share three_s pages \
  twice precision_gap lone_noise wide_gap mean_gap mean_noise mean_wide
printf '%s\n' "${rows[@]}"
echo "(share: lone seconds / one worker's seconds; pages: three workers' downloads / the lone crawl's"
echo " and twice: URLs in more than one of the three shards, of the last run;"
echo " precision_gap: per run, the largest difference in points between the three workers' precision and"
echo " the lone crawl's at a page cut-off from 100 on, @ that cut-off (target: within 2 points);"
echo " lone_noise: per run, the same between a second lone crawl and the first;"
echo " wide_gap: per run, the same between one process with --connections 96 and the lone crawl;"
echo " mean_gap, mean_noise, mean_wide: the same as precision_gap, lone_noise and wide_gap between the curves"
echo " averaged over the runs; mean_noise is the noise floor of mean_gap)"

if ((urls > 0)); then
  echo
  echo "## Redis memory"
  "$bench_bin" --frontier "unix://$sock" --urls "$urls"
fi
