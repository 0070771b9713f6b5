#!/usr/bin/env bash
# What one client costs per message in steady state, counted by the kernel rather than timed: syscalls
# (all, write-like, read-like, epoll_wait, futex), context switches and CPU time per message, for the C
# reference client and nbench clients on the same workload against the C echo server. Noise from other
# processes changes these far less than it changes msg/s, which is why they are the evidence for where
# the time goes. Needs perf (linux-perf) with tracepoints; runs as root or with perf_event_paranoid <= 1.
#
#   bench/per-message.sh                                   # 50 x 16 x 1 KiB: C, nio, netty (target/nbench.jar)
#   bench/per-message.sh --workload 1x1x1k --jar /tmp/old.jar --clients nio
#
# Each client runs for warmup + 4 s; perf counts the process (all its threads) during the last 4 s only,
# and the message count of that window is the client's own msg/s times 4 s.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
baseline="$here/../shared/baseline"
jar="$here/target/nbench.jar"
clients="C,nio,netty"
workload="50x16x1k"
io=1
window_s=4
warm_s=3
port=$((29100 + $$ % 500))

while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --workload) workload="$2"; shift 2 ;;
    --io-threads) io="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "per-message.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
  esac
done
command -v perf >/dev/null || { echo "per-message.sh: needs perf (apt-get install linux-perf)" >&2; exit 1; }
make -s -C "$baseline" >/dev/null
IFS=x read -r c w sz <<< "$workload"
case "$sz" in *k) s=$(( ${sz%k} * 1024 )) ;; *) s="$sz" ;; esac

work="$(mktemp -d)"
spid=""; cpid=""
cleanup() {
  for p in "$cpid" "$spid"; do
    [ -n "$p" ] && { kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; }
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$baseline/echo_server" -p "$port" -t 1 > /dev/null 2>&1 &
spid=$!
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done

events=task-clock,context-switches,raw_syscalls:sys_enter,syscalls:sys_enter_write,syscalls:sys_enter_writev,syscalls:sys_enter_sendto,syscalls:sys_enter_read,syscalls:sys_enter_recvfrom,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_futex
printf '%-8s %-10s %10s %9s %8s %8s %8s %8s %8s %8s\n' client workload msg/s "cpu us" syscalls writes reads epoll futex "ctx sw" 
printf '%-8s %-10s %10s %9s %8s %8s %8s %8s %8s %8s\n' "" "" "" "per msg" "per msg" "per msg" "per msg" "per msg" "per msg" "per msg"
IFS=, read -ra list <<< "$clients"
for who in "${list[@]}"; do
  total=$((warm_s + window_s + 1))
  if [ "$who" = C ]; then
    "$baseline/echo_client" -p "$port" -c "$c" -w "$w" -s "$s" -d "$((total - 1))" -W 1 -t 1 > "$work/out" &
  else
    java -jar "$jar" client --impl "$who" --protocol echo --port "$port" --connections "$c" \
        --threads "$(( c < 4 ? c : 4 ))" --window "$w" --size "$s" --io-threads "$io" --warmup 1 \
        --iterations "$((total - 1))" --iteration-time 1s --format json --progress never > "$work/out" &
  fi
  cpid=$!
  sleep "$warm_s"
  perf stat -x, -e "$events" -p "$cpid" -- sleep "$window_s" 2> "$work/perf" || true
  wait "$cpid" || true
  cpid=""
  python3 - "$who" "$workload" "$work/out" "$work/perf" "$window_s" <<'EOF'
import json, re, sys
who, wl, out, perf, secs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
text = open(out).read()
if who == 'C':
    mps = float(re.search(r'msg_per_s=([\d.]+)', text).group(1))
else:
    c = json.loads(text)['combinations'][0]
    its = [i for i in c['iterations'] if not i['warmup']]
    mps = sum(i['messages'] for i in its) / (sum(i['wallNs'] for i in its) / 1e9)
n = {}
for line in open(perf):
    f = line.strip().split(',')
    if len(f) > 2 and f[0] and f[0][0].isdigit():
        n[f[2]] = float(f[0])
msgs = mps * secs
g = lambda *k: sum(n.get(x, 0) for x in k) / msgs
print(f"{who:8} {wl:10} {mps:10,.0f} {n.get('task-clock', 0) * 1e3 / msgs:9.3f} {g('raw_syscalls:sys_enter'):8.3f} "
      f"{g('syscalls:sys_enter_write', 'syscalls:sys_enter_writev', 'syscalls:sys_enter_sendto'):8.3f} {g('syscalls:sys_enter_read', 'syscalls:sys_enter_recvfrom'):8.3f} "
      f"{g('syscalls:sys_enter_epoll_wait'):8.3f} {g('syscalls:sys_enter_futex'):8.3f} {g('context-switches'):8.3f}")
EOF
done
