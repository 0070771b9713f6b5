#!/usr/bin/env bash
# nbench's HTTP client against wrk, and its latency against a known service time (issue 27's benchmark).
#
# Part 1, throughput against wrk: starts nginx (one worker, access log off, a static file of --body
# bytes) in a temporary directory on a free port, then runs R interleaved rounds of
#   wrk -c C -t T -d S http://127.0.0.1:PORT/file
#   nbench client --url http://127.0.0.1:PORT/file --connections C --threads T --io-threads T ... (each --impl)
# (same connections, keep-alive both, the same number of threads on both sides) and prints each round's
# requests/s and the ratio nbench/wrk, then the median of the per-round ratios. The goal is >= 0.9.
# Also CPU microseconds per request of each client (wrk: user+sys over its run, by /usr/bin/time;
# nbench: its own measured iterations' CPU) and nbench's heap bytes allocated per request: on a busy
# machine req/s say how much of the cores each process won, CPU per request what each request cost.
#
# Part 2, latency against a known service time: `nbench server --protocol http --work 1ms
# --work-mode delay` (each response completed 1 ms later from a timer) driven by nbench's client at a
# fixed rate (--rate, open loop, far below capacity), with each --pacer (hybrid, the default, sleep and spin);
# prints p50 per round and its median, and how far that is from the service time: the nominal 1 ms, and
# what the server itself measured (its processing p50 read through --server-stats: 1 ms plus how late its
# timer fired). The goal is within 10 % of the service time. The same client against a server without
# --work gives the round trip's floor (loopback, wake-ups, both sides' code), to tell the client's share
# of the excess from the timer's.
#
#   bench/http-client.sh                                  # target/nbench.jar, 3 rounds (~6 minutes)
#   bench/http-client.sh --rounds 5 --impl netty,nio --secs 10
#   bench/http-client.sh --jar before=/tmp/old.jar --jar after=target/nbench.jar --impl netty
#                                                         # two jars, alternated in every round
#   bench/http-client.sh --no-latency                     # part 1 only (--no-throughput: part 2 only)
#
# Needs nginx (Debian's nginx-light) and wrk on the PATH; jq to read nbench's JSON. Exit 0 when every run
# completed, 1 when something could not run, 2 on a bad option. Leaves nothing running: nginx and the
# server are stopped by their PID, on error and on Ctrl-C too.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jars=()
rounds=3
secs=10
connections=50
threads=2
body=1000
impls="netty,nio"
latency=yes
throughput=yes
rate=2000
service_ms=1
pacers="hybrid,sleep,spin"
io_threads=""

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  cat <<EOF
options: --jar [LABEL=]FILE (repeatable; default target/nbench.jar)  --rounds N ($rounds)  --secs S (per run, $secs)  --connections C ($connections)
         --threads T (wrk -t and nbench --threads/--io-threads, $threads)  --body BYTES ($body)
         --impl LIST (nbench client transports, $impls)  --rate R (part 2, requests/s, $rate)  --no-latency
         --no-throughput  --pacer LIST (part 2, nbench's --pacer values, $pacers)
         --io-threads N|default (nbench's I/O threads; default: as --threads; "default": nbench's own choice,
           1 on a 2-core machine whose server is local)
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jars+=("$2"); shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --secs) secs="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --body) body="$2"; shift 2 ;;
    --impl) impls="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --pacer) pacers="$2"; shift 2 ;;
    --no-latency) latency=no; shift ;;
    --no-throughput) throughput=no; shift ;;
    --io-threads) io_threads="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "http-client.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
  esac
done
case "$rounds$secs$connections$threads$body$rate" in
  *[!0-9]*) echo "http-client.sh: --rounds, --secs, --connections, --threads, --body and --rate take whole numbers" >&2; exit 2 ;;
esac
for tool in nginx wrk jq java python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "http-client.sh: $tool is not on the PATH: install it (nginx-light, wrk, jq, time)" >&2; exit 1; }
done
[ -n "$io_threads" ] || io_threads="$threads"
case "$io_threads" in default) io_flag=() ;; *[!0-9]*|"") echo "http-client.sh: --io-threads takes a whole number or 'default'" >&2; exit 2 ;; *) io_flag=(--io-threads "$io_threads") ;; esac
[ ${#jars[@]} -gt 0 ] || jars=("$here/target/nbench.jar")
labels=(); paths=()
for j in "${jars[@]}"; do
  if [[ "$j" == *=* ]]; then labels+=("${j%%=*}"); paths+=("${j#*=}"); else labels+=("$(basename "$j" .jar)"); paths+=("$j"); fi
  [ -f "${paths[-1]}" ] || { echo "http-client.sh: no jar at ${paths[-1]}: build it with ./mvnw -B -ntp -q package -DskipTests" >&2; exit 1; }
done
jar="${paths[-1]}" # the servers of part 2 come from the last jar

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
trap 'echo "http-client.sh: interrupted" >&2; exit 130' INT TERM

# A free port: the kernel's choice for a socket bound to port 0, released at once.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

await_port() {
  local port=$1 pid=$2
  for _ in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ---- part 1: nbench against wrk on nginx ---------------------------------------------------------
IFS=, read -r -a impl_list <<< "$impls"
iterations=$(( secs / 2 > 0 ? secs / 2 : 1 )) # measured 2 s iterations in --secs, after a 1 s warmup
status=0
if [ "$throughput" = yes ]; then
mkdir -p "$work/www"
head -c "$body" /dev/urandom > "$work/www/file"
port="$(free_port)"
cat > "$work/nginx.conf" <<EOF
daemon off; master_process off; worker_processes 1; pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 1024; }
http { access_log off; keepalive_requests 100000000;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  server { listen 127.0.0.1:$port; root $work/www; } }
EOF
nginx -c "$work/nginx.conf" -p "$work" > "$work/nginx.out" 2>&1 &
pids+=($!)
await_port "$port" "${pids[-1]}" || { echo "http-client.sh: nginx did not start (see its output below)" >&2; cat "$work/nginx.out" "$work/error.log" >&2 2>/dev/null; exit 1; }
url="http://127.0.0.1:$port/file"
echo "nginx $(nginx -v 2>&1 | sed 's/.*\///') on $url: $body-byte body, 1 worker, access log off"
echo "wrk -c $connections -t $threads -d ${secs}s  vs  nbench client --connections $connections --threads $threads ${io_flag[*]:---io-threads default} --warmup 1 --iterations $iterations --iteration-time 2s"
printf '%-6s %-22s %10s %10s %6s %9s %9s %6s %9s\n' round "jar/impl" "wrk req/s" "nb req/s" ratio "wrk us/r" "nb us/r" "cpu x" "nb B/req"
for r in $(seq 1 "$rounds"); do
  for impl in "${impl_list[@]}"; do
  for k in "${!paths[@]}"; do
    key="${labels[$k]}/$impl"
    # wrk just before each nbench run: the pair shares the machine's state of the moment.
    /usr/bin/time -f '%U %S' -o "$work/wrk.cpu" wrk -c "$connections" -t "$threads" -d "${secs}s" "$url" > "$work/wrk.out"
    wrk_rps="$(awk '/^Requests\/sec/ { print $2 }' "$work/wrk.out")"
    wrk_n="$(awk '/requests in/ { print $1 }' "$work/wrk.out")"
    wrk_cpu="$(awk -v n="$wrk_n" '{ printf "%.3f", ($1 + $2) / n * 1e6 }' "$work/wrk.cpu")"
    if ! java -jar "${paths[$k]}" client --impl "$impl" --url "$url" --connections "$connections" --threads "$threads" \
        "${io_flag[@]}" --warmup 1 --iterations "$iterations" --iteration-time 2s --format json \
        > "$work/nbench.json" 2> "$work/nbench.err"; then
      echo "http-client.sh: $key failed:" >&2; cat "$work/nbench.err" >&2; status=1; continue
    fi
    nb_rps="$(jq '.summary.throughput.mean' "$work/nbench.json")"
    errors="$(jq '.summary.errors.total' "$work/nbench.json")"
    [ "$errors" = 0 ] || echo "http-client.sh: round $r, $key: $errors errors (see errors in nbench's JSON)" >&2
    # CPU per request from nbench's own accounting of its measured iterations (% of one core / req/s):
    # what a busy machine changes far less than req/s, which measure each process's share of the cores.
    nb_cpu="$(jq '.summary.resources.cpuPercent / 100 / .summary.throughput.mean * 1e6' "$work/nbench.json")"
    nb_alloc="$(jq '.summary.resources.allocatedPerMessage // "n/a"' "$work/nbench.json")"
    ratio="$(awk -v a="$nb_rps" -v b="$wrk_rps" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
    cpu_ratio="$(awk -v a="$nb_cpu" -v b="$wrk_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    printf '%-6s %-22s %10.0f %10.0f %6s %9.2f %9.2f %6s %9s\n' "$r" "$key" "$wrk_rps" "$nb_rps" "$ratio" \
      "$wrk_cpu" "$nb_cpu" "$cpu_ratio" "$(printf '%.2f' "$nb_alloc" 2>/dev/null || echo "$nb_alloc")"
    echo "$ratio" >> "$work/ratio.${key/\//.}"
    echo "$cpu_ratio" >> "$work/cpu.${key/\//.}"
  done
  done
done
for impl in "${impl_list[@]}"; do
  for k in "${!paths[@]}"; do
  key="${labels[$k]}/$impl"
  [ -f "$work/ratio.${key/\//.}" ] || continue
  m="$(median < "$work/ratio.${key/\//.}")"
  c="$(median < "$work/cpu.${key/\//.}")"
  verdict="$(awk -v m="$m" 'BEGIN { print (m >= 0.9 ? "meets" : "below") }')"
  echo "median ratio nbench/wrk, $key: $m req/s ($verdict the 0.9 goal); CPU per request $c x wrk's"
  done
done
kill "${pids[0]}" 2>/dev/null || true; wait "${pids[0]}" 2>/dev/null || true
pids=()
fi

# ---- part 2: p50 against a known service time ----------------------------------------------------
# The same client at the same rate against the same server without --work gives the round trip's own
# p50 (loopback, wake-ups, both sides' code): what is above the service time with --work is that floor
# plus how late the timer fires, which tells the client's share from the server's.
[ "$latency" = yes ] || exit "$status"
start_nbench_server() {
  local port=$1; shift
  java -jar "$jar" server --protocol http --port "$port" "$@" > "$work/server.$port.out" 2>&1 &
  pids+=($!)
  await_port "$port" "${pids[-1]}" || { echo "http-client.sh: nbench server $* did not start:" >&2; cat "$work/server.$port.out" >&2; exit 1; }
}
# The server's own figure of the service time comes from its monitor (a token only this run knows).
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/token"
chmod 600 "$work/token"
sport="$(free_port)"
mport="$(free_port)"
start_nbench_server "$sport" --work "${service_ms}ms" --work-mode delay --monitor-port "$mport" \
    --monitor-token-file "$work/token"
zport="$(free_port)"
start_nbench_server "$zport"

# Runs nbench's client at --rate against a port into $work/lat.json, or fails; extra options follow.
rate_run() {
  local client=$1 impl=$2 pacer=$3 port=$4 rc=0
  shift 4
  # A rate missed in an iteration fails the run (nbench's exit 4) but its figures are measured and
  # written: keep them, and say so.
  java -jar "$client" client --impl "$impl" --url "http://127.0.0.1:$port/" --connections "$connections" \
      --threads "$threads" --rate "$rate" --pacer "$pacer" --warmup 1 --iterations "$iterations" \
      --iteration-time 2s --format json "$@" > "$work/lat.json" 2> "$work/lat.err" || rc=$?
  if ! jq -e '.summary.latencyNs.merged.p50' "$work/lat.json" > /dev/null 2>&1; then
    echo "http-client.sh: nbench client --impl $impl --rate $rate --pacer $pacer failed (exit $rc):" >&2
    cat "$work/lat.err" >&2
    return 1
  fi
  [ "$rc" = 0 ] || sed 's/^/  (kept) /' "$work/lat.err" >&2
}
# The client's p50 in microseconds, of the last rate_run.
client_p50() { jq '.summary.latencyNs.merged.p50 / 1000' "$work/lat.json"; }
# The server's processing p50 in microseconds (the median of its measured iterations'), of the last rate_run.
server_p50() {
  jq '[.combinations[0].serverStats.iterations[].processingNanos.p50 / 1000] | sort
      | if length == 0 then "nan" else .[(length - 1) / 2 | floor] end' "$work/lat.json"
}
percent() { awk -v p="$1" -v s="$2" 'BEGIN { printf "%+.1f%%", (p / s - 1) * 100 }'; }

IFS=, read -r -a pacer_list <<< "$pacers"
echo
echo "nbench server --protocol http --work ${service_ms}ms --work-mode delay (and without --work: the floor);"
echo "nbench client --rate $rate --connections $connections --threads $threads --pacer P"
printf '%-6s %-28s %9s %8s %12s %9s %11s\n' round "jar/impl/pacer" "p50 (us)" "vs ${service_ms}ms" \
    "server (us)" "vs server" "floor (us)"
for r in $(seq 1 "$rounds"); do
  for impl in "${impl_list[@]}"; do
  for pacer in "${pacer_list[@]}"; do
  for k in "${!paths[@]}"; do
    key="${labels[$k]}/$impl/$pacer"
    file="${key//\//.}"
    rate_run "${paths[$k]}" "$impl" "$pacer" "$sport" --server-stats --monitor-port "$mport" \
        --monitor-token-file "$work/token" || { status=1; continue; }
    p50="$(client_p50)"
    served="$(server_p50)"
    rate_run "${paths[$k]}" "$impl" "$pacer" "$zport" || { status=1; continue; }
    floor="$(client_p50)"
    printf '%-6s %-28s %9.0f %8s %12.0f %9s %11.0f\n' "$r" "$key" "$p50" "$(percent "$p50" "$((service_ms * 1000))")" \
        "$served" "$(percent "$p50" "$served")" "$floor"
    echo "$p50" >> "$work/p50.$file"
    echo "$served" >> "$work/served.$file"
    echo "$floor" >> "$work/floor.$file"
  done
  done
  done
done
for impl in "${impl_list[@]}"; do
  for pacer in "${pacer_list[@]}"; do
  for k in "${!paths[@]}"; do
  key="${labels[$k]}/$impl/$pacer"
  file="${key//\//.}"
  [ -f "$work/p50.$file" ] || continue
  m="$(median < "$work/p50.$file")"
  v="$(median < "$work/served.$file")"
  f="$(median < "$work/floor.$file")"
  awk -v m="$m" -v v="$v" -v f="$f" -v s="$service_ms" -v i="$key" 'BEGIN {
    d = (m / (s * 1000) - 1) * 100; e = (m / v - 1) * 100;
    printf "median p50, %s: %.0f us: %+.1f%% from the nominal %d ms (%s 10%%), %+.1f%% from the %.0f us the server measured (%s 10%%); round trip without work %.0f us\n",
      i, m, d, s, (d <= 10 && d >= -10 ? "within" : "outside"), e, v, (e <= 10 && e >= -10 ? "within" : "outside"), f }'
  done
  done
done
exit "$status"
