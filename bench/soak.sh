#!/usr/bin/env bash
# Soak test (issue 9; not in CI): a long mixed load with connection churn against each server transport,
# judged on memory. For every server: one nbench server, and three clients running at once against it for
# the whole duration: closed loops of 100 B and 64 KiB messages that reconnect every 200 and 50 requests,
# and an open loop (--rate 1k) of 4 KiB. The live heap (jcmd GC.class_histogram: live objects after a full GC) and
# the RSS of all four JVMs are sampled once warm (after --warm) and again near the end; a process PASSes
# when its live heap grew by less than 4 MiB and its RSS by at most 10 %. The JVMs run with a fixed,
# pre-touched 256 MiB heap (--java-opts), so RSS growth is memory held outside the heap.
#
#   bench/soak.sh                                   # 10 minutes per server, every server transport
#   bench/soak.sh --duration 90 --warm 30 --servers netty,nio # a short run (seconds per server)
#
# Needs jcmd (a JDK) and /proc. Exit 0 when every process passed, 4 when one failed, 1 when something
# could not run. Leaves nothing running: every process it starts is stopped by its PID.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$here/target/nbench.jar"
duration=600
warm=60
servers="netty,mina,nio,blocking,vthreads"
heap_limit_kib=4096
rss_limit_pct=10
# A fixed, pre-touched heap: heap growth is judged after GC, so RSS growth is what the JVM holds outside
# the heap (direct buffers, threads, malloc), not the heap sizing itself.
java_opts="-Xms256m -Xmx256m -XX:+AlwaysPreTouch"

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --duration SECONDS (600) --warm SECONDS (60) --servers LIST ($servers) --jar FILE --java-opts 'OPTS' ($java_opts)"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warm) warm="$2"; shift 2 ;;
    --servers) servers="$2"; shift 2 ;;
    --jar) jar="$2"; shift 2 ;;
    --java-opts) java_opts="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "soak.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
if ! [[ "$duration" =~ ^[0-9]+$ && "$warm" =~ ^[0-9]+$ ]] || [ "$duration" -le $((warm + 20)) ]; then
  echo "soak.sh: --duration must be a whole number of seconds, at least --warm + 21 (got $duration, warm $warm)" >&2
  exit 2
fi
command -v jcmd >/dev/null || { echo "soak.sh: jcmd not found: run with a JDK's bin on PATH" >&2; exit 1; }
if [ ! -f "$jar" ]; then
  (cd "$here" && ./mvnw -B -ntp -q -DskipTests package) || { echo "soak.sh: the build failed" >&2; exit 1; }
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/nbench-soak.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Live heap in KiB: a histogram of the live objects (jcmd runs a full collection first) sums exactly what
# is reachable. "used" read after GC.run also counted what a busy process allocated between the two
# commands: a mina server under this load read 84 and then 140 MiB while its live set was 3.5 MiB.
heap_kib() {
  jcmd "$1" GC.class_histogram | awk '/^Total/ {printf "%d\n", $3 / 1024}'
}

rss_kib() {
  awk '/^VmRSS:/ {print $2}' "/proc/$1/status"
}

sample() { # label pid -> "heap rss"
  echo "$(heap_kib "$2") $(rss_kib "$2")"
}

verdict_all=0
printf '%-9s %-12s %12s %12s %9s %11s %11s %7s  %s\n' server process heap0_KiB heap1_KiB growth rss0_KiB rss1_KiB rss% verdict
for server in ${servers//,/ }; do
  log="$work/$server"
  java $java_opts -jar "$jar" server --impl "$server" --port 0 >"$log.server.out" 2>"$log.server.err" &
  spid=$!
  pids+=("$spid")
  port=""
  for _ in $(seq 1 300); do
    port="$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$log.server.out" | head -n 1)"
    [ -n "$port" ] && break
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "soak.sh: the $server server did not start: $(head -n 1 "$log.server.err")" >&2
    verdict_all=1
    continue
  fi
  # Three clients at once for the whole duration, each a steady shape (so that its two samples compare
  # like with like) and together a mixed load on the server: small and large messages in closed loops
  # that reconnect (churn), and an open loop at a fixed rate. The margin keeps them running past the
  # last sample.
  run_for="$((duration + 15))s"
  common=(--port "$port" --iteration-time "$run_for" --warmup 0 --iterations 1 --max-errors 1000000 --progress never)
  start_client() { # name args...
    local name="$1"
    shift
    java $java_opts -jar "$jar" client "${common[@]}" "$@" >"$log.$name.out" 2>"$log.$name.err" &
    pids+=("$!")
    clients+=("$name:$!")
  }
  clients=()
  start_client small-churn --threads 2 --connections 4 --window 4 --size 100 --requests-per-connection 200
  start_client large-churn --threads 2 --connections 2 --window 4 --size 64k --requests-per-connection 50
  start_client open-loop --threads 2 --connections 8 --rate 1k --size 4k
  sleep "$warm"
  declare -A start=()
  for who in server:$spid "${clients[@]}"; do
    start[${who%%:*}]="$(sample "${who%%:*}" "${who#*:}")"
  done
  sleep $((duration - warm))
  for who in server:$spid "${clients[@]}"; do
    name=${who%%:*}
    pid=${who#*:}
    read -r h0 r0 <<<"${start[$name]}"
    read -r h1 r1 <<<"$(sample "$name" "$pid")"
    growth=$((h1 - h0))
    rss_pct=$(awk -v a="$r0" -v b="$r1" 'BEGIN { printf "%+.1f", (b - a) * 100.0 / a }')
    verdict=PASS
    reason=""
    if [ "$growth" -ge "$heap_limit_kib" ]; then verdict=FAIL; reason="live heap grew by $growth KiB (limit 4 MiB)"; fi
    if awk -v a="$r0" -v b="$r1" -v l="$rss_limit_pct" 'BEGIN { exit !(b > a * (1 + l / 100.0)) }'; then
      verdict=FAIL; reason="${reason:+$reason; }RSS grew by more than $rss_limit_pct %"
    fi
    [ "$verdict" = FAIL ] && verdict_all=4
    printf '%-9s %-12s %12s %12s %9s %11s %11s %7s  %s\n' "$server" "$name" "$h0" "$h1" "$growth" "$r0" "$r1" "$rss_pct" "$verdict${reason:+ ($reason)}"
  done
  for who in "${clients[@]}"; do
    code=0
    wait "${who#*:}" || code=$?
    [ "$code" -eq 0 ] || echo "  ($server ${who%%:*} client exited $code: $(grep -m 1 '^Result' "$log.${who%%:*}.out" || tail -n 1 "$log.${who%%:*}.err"))"
  done
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  pids=()
done
echo "logs: $work"
if [ "$verdict_all" -eq 0 ]; then echo "Result: PASS"; elif [ "$verdict_all" -eq 4 ]; then echo "Result: FAIL"; else echo "Result: could not run every server"; fi
exit "$verdict_all"
