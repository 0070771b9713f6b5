#!/usr/bin/env bash
# What TLS costs, per transport and engine: TLS 1.3 against plain TCP, the same transport on both sides
# (issue 29's benchmark). Per transport (netty, nio, blocking, vthreads, mina) and engine (netty: the
# JDK's SSLEngine and OpenSSL; the others: the JDK's), nbench's server and nbench's client of that
# transport, once plain and once with --tls --tls-protocols TLSv1.3, in R interleaved rounds (every run
# once per round, the round's order reversed every other round, so a noisy moment hurts plain and TLS
# alike):
#   stream:     --connections C --window W --size SIZE (50 x 16 x 1 KiB): msg/s, p50, the client's CPU
#               per message (its own measured iterations) and the server's (its monitor's CPU over the
#               same iterations: the client's --server-stats);
#   handshakes: --requests-per-connection 1 with --threads H (8): a connection, and with TLS a handshake,
#               per request: connections/s, connect p50, handshake p50, CPU per connection;
#   alloc:      after the rounds, one TLS stream run per transport and engine: heap bytes allocated per
#               message by the client (its own allocatedPerMessage; the stream rows give it for plain too)
#               and by the server (every thread's allocated bytes from `jcmd PID Thread.print -e` at two
#               moments of the measured iterations, over the messages between them: the client's msg/s
#               times the time between).
# It prints, per transport and engine, the median over rounds of each figure and of the per-round ratio
# TLS / plain (the ratio of the same round), as a table and as JSON (--json FILE).
#
#   bench/tls.sh                                   # target/nbench.jar, 3 rounds (about 30 minutes)
#   bench/tls.sh --quick                           # 1 round, short runs: checks that everything runs
#   bench/tls.sh --transports netty --rounds 5 --json tls.json
#   bench/tls.sh --rounds 0 --no-stream            # the alloc part alone
#
# A transport whose server refuses --tls (or an engine that cannot load here) is skipped with its
# server's own line. vthreads needs Java 21 or later (PATH=/usr/lib/jvm/temurin-25*/bin:$PATH). Exit 0
# when every run completed, 1 when something could not run or measure, 2 on a bad option. Leaves nothing
# running: every process it starts is stopped by its PID, on error and on Ctrl-C too.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$here/target/nbench.jar"
rounds=3
secs=5
# The JDK's SSLEngine reaches its speed only once C2 has compiled its record and AES-GCM code: on this 2-core VM
# at load 13-15, netty's JDK engine ran at 10-30 k msg/s for 28 s, then 220-290 k (docs/performance.md, "TLS
# against plain TCP"), so the default warmup covers that; plain runs get the same warmup.
warmup=30
# Handshake runs: the JDK's handshake code is compiled after some thousands of handshakes, and its engine made
# 11-106 a second in the first measurement (load 20-40): 5 s of warmup left those figures cold.
hs_warmup=20
transports="netty,nio,blocking,vthreads,mina"
engines="jdk,openssl"
connections=50
window=16
size=1k
hs_threads=8
protocol=framed
io_threads=1
stream=yes
handshakes=yes
alloc=yes
json_out=""
raw=""
keep=""

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  cat <<EOF
options: --jar FILE ($jar)  --rounds N ($rounds)  --secs S (measured seconds per run, $secs)
         --warmup S (seconds before them, every stream run, $warmup)  --hs-warmup S (handshake runs, $hs_warmup)
         --transports LIST ($transports)
         --engines LIST (netty's, $engines)  --connections C ($connections)  --window W ($window)
         --size SIZE ($size)  --hs-threads H (connections of the handshake runs, $hs_threads)
         --protocol framed|echo ($protocol)  --io-threads N|default (both sides, $io_threads)
         --no-stream  --no-handshakes  --no-alloc  --json FILE  --raw FILE (every run's figures, TSV)  --quick
         --results-dir DIR (keep every client's result document, e.g. for nbench compare)
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --secs) secs="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --hs-warmup) hs_warmup="$2"; shift 2 ;;
    --transports) transports="$2"; shift 2 ;;
    --engines) engines="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --window) window="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --hs-threads) hs_threads="$2"; shift 2 ;;
    --protocol) protocol="$2"; shift 2 ;;
    --io-threads) io_threads="$2"; shift 2 ;;
    --no-stream) stream=no; shift ;;
    --no-handshakes) handshakes=no; shift ;;
    --no-alloc) alloc=no; shift ;;
    --json) json_out="$2"; shift 2 ;;
    --raw) raw="$2"; shift 2 ;;
    --results-dir) keep="$2"; shift 2 ;;
    --quick) rounds=1; secs=4; warmup=2; hs_warmup=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "tls.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
  esac
done
case "$rounds$secs$warmup$hs_warmup$connections$window$hs_threads" in
  *[!0-9]*) echo "tls.sh: --rounds, --secs, --warmup, --hs-warmup, --connections, --window and --hs-threads take whole numbers" >&2; exit 2 ;;
esac
[ "$secs" -ge 4 ] || { echo "tls.sh: --secs must be at least 4 (the allocation window is inside them)" >&2; exit 2; }
case "$protocol" in framed|echo) ;; *) echo "tls.sh: --protocol takes framed or echo" >&2; exit 2 ;; esac
case "$io_threads" in default) io_flag=() ;; *[!0-9]*|"") echo "tls.sh: --io-threads takes a whole number or 'default'" >&2; exit 2 ;; *) io_flag=(--io-threads "$io_threads") ;; esac
for tool in java jcmd python3; do
  command -v "$tool" >/dev/null || { echo "tls.sh: $tool is not on the PATH" >&2; exit 1; }
done
[ -f "$jar" ] || { echo "tls.sh: no jar at $jar: build it with ./mvnw -B -ntp -q package -DskipTests" >&2; exit 1; }
# jcmd of the JDK whose java runs the servers: another JDK's jcmd may not attach.
jcmd="$(dirname "$(readlink -f "$(command -v java)")")/jcmd"
[ -x "$jcmd" ] || jcmd=jcmd

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'echo "tls.sh: interrupted" >&2; exit 130' INT TERM
[ -n "$raw" ] || raw="$work/raw.tsv"
: > "$raw"
[ -z "$keep" ] || mkdir -p "$keep"
# The server's monitor (for the client's --server-stats) reads its token from here, and so does the client.
NBENCH_MONITOR_TOKEN="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
export NBENCH_MONITOR_TOKEN

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts `nbench server` with the given arguments on $port (monitor on $mport); its pid in $spid. Returns 1,
# with the server's output in $work/server.out, when it does not accept connections.
start_server() {
  port="$(free_port)"; mport="$(free_port)"
  java -jar "$jar" server --port "$port" --monitor-port "$mport" --protocol "$protocol" "${io_flag[@]}" "$@" \
      > "$work/server.out" 2>&1 &
  spid=$!
  pids+=("$spid")
  for _ in $(seq 1 400); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.05
  done
  stop_server
  return 1
}

# Forgets a pid this script waited for, so that cleanup never signals a pid the kernel has given to another.
forget_pid() {
  local p kept=()
  for p in "${pids[@]}"; do [ "$p" = "$1" ] || kept+=("$p"); done
  pids=("${kept[@]}")
}

stop_server() {
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  forget_pid "$spid"
  spid=""
}

# The options of one side for a configuration "transport:engine" and a mode (plain or tls).
tls_args() { # who mode
  local impl=${1%%:*} engine=${1#*:}
  [ "$2" = tls ] || return 0
  printf '%s\n' --tls --tls-protocols TLSv1.3
  [ "$impl" != netty ] || printf '%s\n' -O "netty.tls-engine=$engine"
}

# Runs nbench's client against $port; $1 = stream or handshakes; the rest its TLS options. Writes its JSON to
# $work/client.json and prints the figures of figures.py.
run_client() {
  local kind=$1 impl=$2 load=(); shift 2
  if [ "$kind" = stream ]; then
    load=(--connections "$connections" --threads "$(( connections < 4 ? connections : 4 ))" --window "$window"
          --size "$size" --warmup "$warmup")
  else
    load=(--connections "$hs_threads" --threads "$hs_threads" --requests-per-connection 1 --warmup "$hs_warmup")
  fi
  java -jar "$jar" client --impl "$impl" --port "$port" --protocol "$protocol" "${io_flag[@]}" "${load[@]}" "$@" \
      --iterations "$secs" --iteration-time 1s --server-stats --monitor-port "$mport" \
      --format json --progress never > "$work/client.json" 2> "$work/client.err" || true
  python3 "$work/figures.py" "$kind" "$work/client.json" "$work/client.err"
}

cat > "$work/figures.py" <<'EOF'
# Prints one run's figures from the client's JSON, "nan" for each it lacks:
#   stream:     msg/s, p50 us, client CPU us/msg, server CPU us/msg, client B/msg
#   handshakes: connections/s, connect p50 us, handshake p50 us, client CPU us/conn, server CPU us/conn
import json, statistics, sys
kind, path, err = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    c = json.load(open(path))['combinations'][0]
    its = [i for i in c['iterations'] if not i['warmup']]
    msgs = sum(i['messages'] for i in its)
    wall = sum(i['wallNs'] for i in its) / 1e9
    ccpu = sum(i['resources']['cpuPercent'] / 100 * i['wallNs'] / 1e9 for i in its) / msgs * 1e6
    stats = {s['index']: s for s in (c.get('serverStats') or {}).get('iterations', [])}
    server = [(stats[i['index']], i['messages']) for i in its if i['index'] in stats]
    scpu = (sum(s['cpuPercent'] / 100 * s['nanos'] / 1e9 for s, _ in server) / sum(m for _, m in server) * 1e6
            if server and all(s['cpuPercent'] is not None for s, _ in server) else float('nan'))
    if kind == 'stream':
        alloc = c['summary']['resources'].get('allocatedPerMessage')
        print(f"{msgs / wall:.0f} {c['summary']['latencyNs']['merged']['p50'] / 1000:.1f} {ccpu:.3f} {scpu:.3f} "
              f"{alloc if alloc is not None else float('nan'):.1f}")
    else:
        def p50(key):
            xs = [i[key]['latencyNs']['p50'] / 1000 for i in its if i.get(key) and i[key]['count']]
            return statistics.median(xs) if xs else float('nan')
        print(f"{msgs / wall:.0f} {p50('connectLatency'):.1f} {p50('handshakeLatency'):.1f} {ccpu:.1f} {scpu:.1f}")
except Exception as e:
    print(f"tls.sh: no figures from the client ({type(e).__name__}: {e}); its stderr:", file=sys.stderr)
    print(''.join('  ' + l for l in open(err).readlines()[:5]), end='', file=sys.stderr)
    print("nan nan nan nan nan")
EOF

# Heap bytes allocated so far by every live thread of a JVM (jcmd's extended thread dump, "allocated=..."),
# but the Attach Listener, the thread that serves jcmd itself. HotSpot prints each count in bytes, in whole K
# from 100 KiB, whole M from 100 MiB and whole G from 100 GiB (seen: 15704B, 28424K, 1932M): a thread past
# 100 GiB is counted to the GiB, too coarse for a window of seconds, so then there is no figure ("nan").
allocated_of() {
  "$jcmd" "$1" Thread.print -e 2>/dev/null | python3 -c '
import re, sys
unit = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
total = 0
for line in sys.stdin:
    m = re.search(r"allocated=([\d.]+)([KMG]?)B?", line)
    if m and not line.startswith("\"Attach Listener\""):
        if m.group(2) == "G":
            total = 0
            break
        total += float(m.group(1)) * unit[m.group(2)]
print(f"{total:.0f}" if total else "nan")'
}

record() { # kind round who mode figures...
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" $5 >> "$raw"
  printf '  %-10s round %s %-15s %-5s %s\n' "$1" "$2" "$3" "$4" "$5" >&2
}

# The configurations: transport:engine. netty has an engine of each kind; the others only the JDK's.
IFS=, read -ra impl_list <<< "$transports"
IFS=, read -ra engine_list <<< "$engines"
configs=()
for impl in "${impl_list[@]}"; do
  if [ "$impl" = netty ]; then
    for e in "${engine_list[@]}"; do configs+=("netty:$e"); done
  else
    configs+=("$impl:jdk")
  fi
done

# A transport or engine whose TLS server cannot start here is said once and left out.
status=0
available=()
for who in "${configs[@]}"; do
  mapfile -t targs < <(tls_args "$who" tls)
  if start_server --impl "${who%%:*}" "${targs[@]}"; then
    stop_server
    available+=("$who")
  else
    echo "tls.sh: $who skipped: its server does not run with --tls here: $(grep -v '^\s*$' "$work/server.out" | head -1)" >&2
  fi
done
[ ${#available[@]} -gt 0 ] || { echo "tls.sh: nothing to measure" >&2; exit 1; }

# One round's runs: per transport its plain run, then each engine's TLS run (netty's plain run serves both
# engines); kind stream, then handshakes.
runs=()
kinds=()
[ "$stream" = yes ] && kinds+=(stream)
[ "$handshakes" = yes ] && kinds+=(handshakes)
[ ${#kinds[@]} -gt 0 ] || { echo "tls.sh: --no-stream and --no-handshakes leave nothing to measure" >&2; exit 2; }
for kind in "${kinds[@]}"; do
  seen=""
  for who in "${available[@]}"; do
    impl=${who%%:*}
    if [[ " $seen " != *" $impl "* ]]; then runs+=("$kind $impl:- plain"); seen="$seen $impl"; fi
    runs+=("$kind $who tls")
  done
done

measure() { # kind round who mode
  local kind=$1 r=$2 who=$3 mode=$4 impl=${3%%:*} targs cargs=()
  mapfile -t targs < <(tls_args "$who" "$mode")
  [ "$mode" = plain ] || cargs=(--tls-insecure)
  if ! start_server --impl "$impl" "${targs[@]}"; then
    echo "tls.sh: round $r, $who $mode: the server did not start:" >&2; sed 's/^/  /' "$work/server.out" >&2
    record "$kind" "$r" "$who" "$mode" "nan nan nan nan nan"; status=1; return 0
  fi
  record "$kind" "$r" "$who" "$mode" "$(run_client "$kind" "$impl" "${targs[@]}" "${cargs[@]}")"
  stop_server
  local name="${who%:-}"
  [ -z "$keep" ] || cp "$work/client.json" "$keep/round$r-$kind-${name/:/-}-$mode.json"
}

load0="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "tls.sh: $(java -version 2>&1 | head -1); ${#available[@]} configuration(s), $rounds round(s) of ${#runs[@]} runs, ${secs}s measured after ${warmup}s warmup each (handshakes: ${hs_warmup}s); load average before: $load0" >&2
for r in $(seq 1 "$rounds"); do
  order=("${runs[@]}")
  # Every other round runs backwards: whatever runs second in a pair is at a disadvantage on a busy machine
  # (bench/perf.sh measured 0.53-0.66x for the second of two identical jars), so an even number of rounds
  # cancels the order.
  if (( r % 2 == 0 )); then mapfile -t order < <(printf '%s\n' "${runs[@]}" | tac); fi
  for run in "${order[@]}"; do
    read -r kind who mode <<< "$run"
    measure "$kind" "$r" "$who" "$mode"
  done
done

# Allocation: one TLS stream run per configuration (plain allocates nothing per message: NioAllocationTest,
# NettyAllocationTest), the server's threads read by jcmd at two moments of the measured iterations (about 1 s
# after they begin and 1 s before they end: the client JVM starts in up to 2 s), the client's from its document.
if [ "$alloc" = yes ]; then
  for who in "${available[@]}"; do
    mode=tls
    impl=${who%%:*}
    mapfile -t targs < <(tls_args "$who" "$mode")
    cargs=(); [ "$mode" = plain ] || cargs=(--tls-insecure)
    if ! start_server --impl "$impl" "${targs[@]}"; then
      record alloc 1 "$who" "$mode" "nan nan nan nan nan"; status=1; continue
    fi
    run_client stream "$impl" "${targs[@]}" "${cargs[@]}" > "$work/alloc.figures" &
    cpid=$!
    pids+=("$cpid")
    # The client's JVM starts and connects in about a second; its measured iterations begin after the warmup.
    sleep "$((warmup + 3))"
    t0="$(date +%s.%N)"; a0="$(allocated_of "$spid")"
    sleep "$((secs - 3))"
    t1="$(date +%s.%N)"; a1="$(allocated_of "$spid")"
    wait "$cpid" || true
    forget_pid "$cpid"
    stop_server
    read -r mps _ _ _ calloc < "$work/alloc.figures"
    salloc="$(python3 -c 'import sys; m, t0, t1, a0, a1 = map(float, sys.argv[1:]); n = m * (t1 - t0); print(f"{(a1 - a0) / n:.1f}" if n > 0 else "nan")' "$mps" "$t0" "$t1" "$a0" "$a1")"
    record alloc 1 "$who" "$mode" "$mps $calloc $salloc nan nan"
  done
fi
load1="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$raw" "$rounds" "$load0" "$load1" "$json_out" "$connections x $window x $size" "$hs_threads" <<'EOF'
import json, math, statistics, sys
raw, rounds, load0, load1, json_out, workload, hs = sys.argv[1:8]
rows = [l.rstrip('\n').split('\t') for l in open(raw) if l.strip()]
def num(x):
    try:
        v = float(x); return None if math.isnan(v) else v
    except ValueError:
        return None
runs = {}  # (kind, who, mode) -> {round: figures}
for kind, r, who, mode, *figs in rows:
    runs.setdefault((kind, who, mode), {})[int(r)] = [num(f) for f in figs]
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None
def plain_of(kind, who):
    return runs.get((kind, who.split(':')[0] + ':-', 'plain'), {})
names = {'stream': ['msgPerSec', 'p50Us', 'clientCpuUsPerMsg', 'serverCpuUsPerMsg', 'clientBytesPerMsg'],
         'handshakes': ['connPerSec', 'connectP50Us', 'handshakeP50Us', 'clientCpuUsPerConn', 'serverCpuUsPerConn'],
         'alloc': ['msgPerSec', 'clientBytesPerMsg', 'serverBytesPerMsg', None, None]}
out = []
for (kind, who, mode), by_round in runs.items():
    if mode != 'tls':
        continue
    plain = plain_of(kind, who)
    o = {'kind': kind, 'who': who, 'rounds': len(by_round)}
    for k, name in enumerate(names[kind]):
        if name is None:
            continue
        o[name] = {'tls': med(v[k] for v in by_round.values()), 'plain': med(v[k] for v in plain.values()),
                   'ratio': med(by_round[r][k] / plain[r][k] for r in by_round
                                if r in plain and by_round[r][k] is not None and plain[r][k])}
    out.append(o)
def f(v, fmt):
    return '-' if v is None else format(v, fmt)
def cell(o, name, fmt):
    x = o[name]
    if name.endswith('BytesPerMsg'):  # plain allocates (about) nothing: a ratio to it says nothing
        return f"{f(x['tls'], fmt)} / {f(x['plain'], fmt)}"
    return f"{f(x['tls'], fmt)} / {f(x['plain'], fmt)} ({f(x['ratio'], '.2f')}x)"
print(f"TLS 1.3 / plain TCP, the same transport both sides; medians of {rounds} interleaved round(s), ratios the "
      f"medians of per-round ratios TLS/plain; load average before: {load0}, after: {load1}")
for kind, title, cols in [
        ('stream', f'{workload}', [('msgPerSec', 'msg/s', ',.0f'), ('p50Us', 'p50 us', '.0f'),
                                   ('clientCpuUsPerMsg', 'client CPU us/msg', '.2f'),
                                   ('serverCpuUsPerMsg', 'server CPU us/msg', '.2f'),
                                   ('clientBytesPerMsg', 'client B/msg', '.1f')]),
        ('handshakes', f'--requests-per-connection 1, {hs} connections',
         [('connPerSec', 'conn/s', ',.0f'), ('connectP50Us', 'connect p50 us', '.0f'),
          ('handshakeP50Us', 'handshake p50 us', '.0f'), ('clientCpuUsPerConn', 'client CPU us/conn', '.0f'),
          ('serverCpuUsPerConn', 'server CPU us/conn', '.0f')]),
        ('alloc', f'heap bytes allocated per message, {workload}, one run',
         [('clientBytesPerMsg', 'client B/msg', '.1f'), ('serverBytesPerMsg', 'server B/msg', '.1f')])]:
    rows = [o for o in out if o['kind'] == kind]
    if not rows:
        continue
    print(f"\n{kind}: {title}   (each cell: TLS / plain (TLS/plain))")
    print('| transport:engine | ' + ' | '.join(c[1] for c in cols) + ' |')
    print('|---' * (len(cols) + 1) + '|')
    for o in rows:
        print(f"| {o['who']} | " + ' | '.join(cell(o, n, fmt) for n, _, fmt in cols) + ' |')
doc = {'rounds': int(rounds), 'loadBefore': load0, 'loadAfter': load1, 'workload': workload,
       'handshakeConnections': int(hs), 'results': out}
if json_out:
    with open(json_out, 'w') as fh:
        json.dump(doc, fh, indent=1)
    print(f"\nJSON written to {json_out}")
EOF
# A figure every run of its kind has (a plain handshake run has no handshake latency; alloc runs have three).
if awk -F'\t' '{ last = ($1 == "alloc") ? 7 : 9
                 for (i = 5; i <= last; i++) if ($i == "nan" && !($1 == "handshakes" && $4 == "plain" && i == 7)) bad = 1 }
               END { exit !bad }' "$raw"; then
  echo "tls.sh: some runs produced no figures ('-' above): see the messages above the table" >&2
  status=1
fi
exit "$status"
