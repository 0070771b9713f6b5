#!/usr/bin/env bash
# Performance comparison against the C references: is nbench the bottleneck it measures?
#
# Builds the C epoll echo server and pipelined echo client from ../shared/baseline (beside the
# repository), then runs, in R interleaved rounds (every pairing once per round, the jars' order
# reversed every other round, so that a noisy moment hurts all of them alike):
#   client side: the C client, then nbench's clients (each --jar, each --clients transport), against
#                the C server, for every workload (connections x window x size);
#   server side: the C client against the C server, then against each --jar's --servers transports;
#   framed server side (sides "framed" and "framed-pool"): the first jar's nbench client (nio, the framed
#                protocol) against each --jar's --servers transports, requests answered on the I/O thread
#                and on nbench's business pool (--executor-threads 2:2): the server's request path, which
#                the echo protocol skips. There is no C framed server: the reference is the first --jar's
#                server of the same transport, so with --jar before=... --jar after=... the ratios read
#                "after against before".
# It prints, per pairing, the median over rounds of msg/s, p50 and CPU per message, and the ratio to
# the reference (median of the per-round ratios), as a table and as JSON (--json FILE).
#
#   bench/perf.sh                                         # target/nbench.jar, 3 rounds (~7 minutes)
#   bench/perf.sh --jar before=/tmp/old.jar --jar after=target/nbench.jar --rounds 5
#   bench/perf.sh --quick                                 # 1 round, two workloads, nio and netty
#   bench/perf.sh --jar before=/tmp/old.jar --jar after=target/nbench.jar --workloads none --rounds 5
#                                                         # the servers only (echo and framed), before/after
#
# Both sides run with one I/O thread (--io-threads 1, the C programs' -t 1) unless a pairing says
# "io=default". Exit 0 when every run completed, 1 when something could not run. Leaves nothing
# running: every process it starts is stopped by its PID, on error and on Ctrl-C too.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
baseline="$here/../shared/baseline"
jars=()
rounds=3
secs=3
warmup=2
clients="nio,netty"
servers="nio,netty,mina,blocking,vthreads"
# connections x window x size; the first is the server-side workload too
workloads="50x16x1k 1x1x1k 4x1x1k 200x16x1k 50x16x5k"
default_io_workloads="50x16x1k"
server_workload="50x16x1k"
json_out=""
raw=""
framed=yes
port=$((27100 + $$ % 2000))

usage() {
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  cat <<EOF
options: --jar [LABEL=]FILE (repeatable; default after=target/nbench.jar)  --rounds N ($rounds)
         --secs S (measured seconds per run, $secs)  --warmup S ($warmup)  --clients LIST ($clients)
         --servers LIST ($servers; "none" skips the server side)  --workloads "CxWxSIZE ..." ($workloads)
         --json FILE (also write the results as JSON)  --raw FILE (keep every run's figures, TSV)  --quick
         --no-framed (skip the framed server side)  --workloads none (skip the client side)
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jars+=("$2"); shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --secs) secs="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --servers) servers="$2"; shift 2 ;;
    --workloads) workloads="$2"; shift 2 ;;
    --json) json_out="$2"; shift 2 ;;
    --raw) raw="$2"; shift 2 ;;
    --quick) rounds=1; secs=2; workloads="50x16x1k 1x1x1k"; servers="nio,netty"; shift ;;
    --no-framed) framed=no; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "perf.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
  esac
done
[ ${#jars[@]} -gt 0 ] || jars=("after=$here/target/nbench.jar")
case "$rounds$secs$warmup" in *[!0-9]*) echo "perf.sh: --rounds, --secs and --warmup take whole numbers" >&2; exit 2 ;; esac

labels=(); paths=()
for j in "${jars[@]}"; do
  if [[ "$j" == *=* ]]; then labels+=("${j%%=*}"); paths+=("${j#*=}"); else labels+=("$(basename "$j" .jar)"); paths+=("$j"); fi
  if [ ! -f "${paths[-1]}" ]; then
    echo "perf.sh: no jar at ${paths[-1]}: build it with ./mvnw -o -q -DskipTests package" >&2; exit 1
  fi
done
if [ ! -d "$baseline" ]; then
  echo "perf.sh: no C references at $baseline (the shared/ directory beside the repository)" >&2; exit 1
fi
make -s -C "$baseline" >/dev/null || { echo "perf.sh: building the C references in $baseline failed" >&2; exit 1; }
cserver="$baseline/echo_server"; cclient="$baseline/echo_client"

work="$(mktemp -d)"
spid=""
cleanup() {
  if [ -n "$spid" ]; then
    kill "$spid" 2>/dev/null || true
    wait "$spid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'echo "perf.sh: interrupted" >&2; exit 130' INT TERM
[ -n "$raw" ] || raw="$work/raw.tsv"
: > "$raw"

size_bytes() { case "$1" in *k) echo $(( ${1%k} * 1024 )) ;; *) echo "$1" ;; esac; }

# Starts a server in the background on $port, records its pid in $spid, waits until it accepts.
start_server() {
  "$@" > "$work/server.out" 2>&1 &
  spid=$!
  for _ in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    if ! kill -0 "$spid" 2>/dev/null; then break; fi
    sleep 0.05
  done
  echo "perf.sh: server did not start, skipped: $*" >&2; sed 's/^/  /' "$work/server.out" >&2
  spid=""
  return 1
}

stop_server() {
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  spid=""
}

# CPU seconds (user+sys) a process has used so far.
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }

# Runs the C client against $port; prints "msg_per_s p50_us cpu_us_per_msg".
run_cclient() {
  local c=$1 w=$2 s=$3 out
  out="$("$cclient" -p "$port" -c "$c" -w "$w" -s "$s" -d "$secs" -W "$warmup" -t 1)"
  python3 - "$out" <<'EOF'
import re, sys
f = dict(re.findall(r'(\w+)=([\d.]+)', sys.argv[1]))
msgs = float(f['msgs'])
cpu = float(f['cpu_user_s']) + float(f['cpu_sys_s'])
print(f"{float(f['msg_per_s']):.0f} {float(f['rtt_us_p50']):.1f} {cpu / msgs * 1e6 if msgs else 0:.3f}")
EOF
}

# Runs an nbench client; prints "msg_per_s p50_us cpu_us_per_msg" over the measured iterations.
run_nclient() {
  local jar=$1 impl=$2 io=$3 c=$4 w=$5 s=$6 protocol=${7:-echo} threads ioarg=()
  threads=$(( c < 4 ? c : 4 ))
  [ "$io" = default ] || ioarg=(--io-threads "$io")
  java -jar "$jar" client --impl "$impl" --protocol "$protocol" --port "$port" --connections "$c" \
      --threads "$threads" --window "$w" --size "$s" "${ioarg[@]}" --warmup "$warmup" --iterations "$secs" \
      --iteration-time 1s --format json --progress never > "$work/client.json" 2> "$work/client.err" || true
  python3 - "$work/client.json" "$warmup" <<'EOF'
import json, sys
try:
    c = json.load(open(sys.argv[1]))['combinations'][0]
    its = [i for i in c['iterations'] if not i['warmup']]
    msgs = sum(i['messages'] for i in its)
    wall = sum(i['wallNs'] for i in its) / 1e9
    cpu = sum(i['resources']['cpuPercent'] / 100 * i['wallNs'] / 1e9 for i in its)
    print(f"{msgs / wall:.0f} {c['summary']['latencyNs']['merged']['p50'] / 1000:.1f} {cpu / msgs * 1e6:.3f}")
except Exception as e:
    print("nan nan nan")
EOF
}

record() { # round side workload who figures...
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" $5 >> "$raw"
  printf '  round %s %-11s %-10s %-28s %10s msg/s  p50 %8s us  cpu %s us/msg\n' "$1" "$2" "$3" "$4" $5 >&2
}

unavailable=""
IFS=, read -ra client_impls <<< "$clients"
IFS=, read -ra server_impls <<< "$servers"
[ "$servers" = none ] && server_impls=()

echo "perf.sh: ${#jars[@]} jar(s), $rounds round(s), ${secs}s per run after ${warmup}s warmup; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
start_load="$(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  # The jars' order alternates between rounds (A B, then B A): on a busy machine the jar run second was
  # measured 0.53-0.66x the first in 3 of 3 rounds with identical code (an A/A check, load 20 on 2 cores),
  # so a fixed order would read as a difference between the jars.
  order=("${!paths[@]}")
  if (( r % 2 == 0 )); then mapfile -t order < <(printf '%s\n' "${!paths[@]}" | tac); fi
  # client side: every client against the C server
  for wl in $workloads; do
    [ "$wl" != none ] || continue
    IFS=x read -r c w sz <<< "$wl"
    s="$(size_bytes "$sz")"
    port=$((port + 1))
    start_server "$cserver" -p "$port" -t 1
    record "$r" client "$wl" "C" "$(run_cclient "$c" "$w" "$s")"
    for i in "${order[@]}"; do
      for impl in "${client_impls[@]}"; do
        record "$r" client "$wl" "${labels[$i]}:$impl:io=1" "$(run_nclient "${paths[$i]}" "$impl" 1 "$c" "$w" "$s")"
        if [[ " $default_io_workloads " == *" $wl "* ]]; then
          record "$r" client "$wl" "${labels[$i]}:$impl:io=default" \
              "$(run_nclient "${paths[$i]}" "$impl" default "$c" "$w" "$s")"
        fi
      done
    done
    stop_server
  done
  # server side: the C client against every server; CPU per message is the server's
  [ ${#server_impls[@]} -gt 0 ] || continue
  IFS=x read -r c w sz <<< "$server_workload"
  s="$(size_bytes "$sz")"
  run_against() { # who, server command...
    local who=$1 before after figs a cmd=(); shift
    port=$((port + 1))
    for a in "$@"; do cmd+=("${a//@PORT@/$port}"); done
    if [[ " $unavailable " == *" $who "* ]]; then return 0; fi
    if ! start_server "${cmd[@]}"; then
      # e.g. vthreads on a JVM before 21: say so once and leave it out of later rounds
      unavailable="$unavailable $who"
      record "$r" server "$server_workload" "$who" "n/a n/a n/a"
      return 0
    fi
    before="$(cpu_of "$spid")"
    figs="$(run_cclient "$c" "$w" "$s")"
    after="$(cpu_of "$spid")"
    stop_server
    read -r mps p50 _ <<< "$figs"
    record "$r" server "$server_workload" "$who" \
        "$mps $p50 $(python3 -c 'import sys; m = float(sys.argv[1]); d = float(sys.argv[3]) - float(sys.argv[2]); print(f"{d / (m * float(sys.argv[4])) * 1e6:.3f}" if m > 0 else "nan")' "$mps" "$before" "$after" "$((secs + warmup))")"
  }
  run_against C "$cserver" -p @PORT@ -t 1
  for impl in "${server_impls[@]}"; do
    for i in "${order[@]}"; do
      run_against "${labels[$i]}:$impl" java -jar "${paths[$i]}" server --impl "$impl" --protocol echo \
          --port @PORT@ --io-threads 1
    done
  done
  # framed server side: the first jar's client drives every jar's servers through their request path
  [ "$framed" = yes ] || continue
  for side in framed framed-pool; do
    pool=(); [ "$side" = framed-pool ] && pool=(--executor-threads 2:2 --executor-queue 100000)
    for impl in "${server_impls[@]}"; do
      for i in "${order[@]}"; do
        who="${labels[$i]}:$impl"
        port=$((port + 1))
        if [[ " $unavailable " == *" $who "* ]]; then continue; fi
        if ! start_server java -jar "${paths[$i]}" server --impl "$impl" --port "$port" --io-threads 1 "${pool[@]}"; then
          record "$r" "$side" "$server_workload" "$who" "n/a n/a n/a"
          continue
        fi
        before="$(cpu_of "$spid")"
        figs="$(run_nclient "${paths[0]}" nio 1 "$c" "$w" "$s" framed)"
        after="$(cpu_of "$spid")"
        stop_server
        read -r mps p50 _ <<< "$figs"
        record "$r" "$side" "$server_workload" "$who" \
            "$mps $p50 $(python3 -c 'import sys; m = float(sys.argv[1]); d = float(sys.argv[3]) - float(sys.argv[2]); print(f"{d / (m * float(sys.argv[4])) * 1e6:.3f}" if m > 0 else "nan")' "$mps" "$before" "$after" "$((secs + warmup))")"
      done
    done
  done
done
end_load="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$raw" "$rounds" "$start_load" "$end_load" "$json_out" "${labels[0]}" <<'EOF'
import json, math, statistics, sys
raw, rounds, load0, load1, json_out, first = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
rows = [l.rstrip('\n').split('\t') for l in open(raw) if l.strip()]
def num(x):
    try:
        v = float(x); return None if math.isnan(v) else v
    except ValueError:
        return None
runs = {}  # (side, workload, who) -> {round: (mps, p50, cpu)}
for r, side, wl, who, mps, p50, cpu in rows:
    runs.setdefault((side, wl, who), {})[int(r)] = (num(mps), num(p50), num(cpu))
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None
out = []
for (side, wl, who), by_round in runs.items():
    # the framed sides have no C server: their reference is the first jar's server of the same transport
    ref = runs.get((side, wl, first + ':' + who.split(':', 1)[-1] if side.startswith('framed') else 'C'), {})
    def ratios(k):
        return [by_round[r][k] / ref[r][k] for r in by_round
                if r in ref and by_round[r][k] and ref[r][k]]
    out.append({
        'side': side, 'workload': wl, 'who': who, 'rounds': len(by_round),
        'msgPerSec': med(v[0] for v in by_round.values()),
        'p50Us': med(v[1] for v in by_round.values()),
        'cpuUsPerMsg': med(v[2] for v in by_round.values()),
        'msgPerSecRatio': med(ratios(0)), 'p50Ratio': med(ratios(1)), 'cpuPerMsgRatio': med(ratios(2)),
    })
def f(v, fmt):
    return '-' if v is None else format(v, fmt)
print(f"medians of {rounds} interleaved round(s); ratios are medians of per-round ratios to the reference "
      f"of the same round (client side: C client; server side: C server, both driven by the C client; "
      f"framed sides: the first jar's server of the same transport, driven by the first jar's nio client)")
print(f"load average before: {load0}, after: {load1}")
hdr = f"{'side':11} {'workload':10} {'who':28} {'msg/s':>10} {'x ref':>6} {'p50 us':>8} {'x ref':>6} {'cpu us/msg':>10} {'x ref':>6}"
print(hdr); print('-' * len(hdr))
for o in out:
    print(f"{o['side']:11} {o['workload']:10} {o['who']:28} {f(o['msgPerSec'], ',.0f'):>10} {f(o['msgPerSecRatio'], '.2f'):>6} "
          f"{f(o['p50Us'], '.1f'):>8} {f(o['p50Ratio'], '.2f'):>6} {f(o['cpuUsPerMsg'], '.2f'):>10} {f(o['cpuPerMsgRatio'], '.2f'):>6}")
doc = {'rounds': rounds, 'loadBefore': load0, 'loadAfter': load1, 'results': out}
if json_out:
    with open(json_out, 'w') as fh:
        json.dump(doc, fh, indent=1)
    print(f"JSON written to {json_out}")
EOF
if grep -q nan "$raw"; then
  echo "perf.sh: some runs produced no figures ('-' above): see the messages above the table" >&2
  exit 1
fi
