#!/usr/bin/env bash
# Lock benchmark: Palisade against etcd's server-side Lock API, on loopback, in one run.
#
#   bash bench/run.sh            (npm run bench)
#   bash bench/run.sh auth       (npm run bench -- auth): access control alone, below
#
# Everything of Palisade's runs compiled, from dist/ (rebuilt first if a source changed):
# the nodes (bin/palisade.mjs), the benchmark client backend and the parts below.
#
# First the engine alone (bench/engine.ts, the part `engine`): three nodes of the real Raft
# core, driver, LevelDB store and lock state machine in one process, messages handed over in
# memory (no gRPC, no node host, no client), lock commands proposed to the leader in batches
# of 1 to 1024: commands/s committed and applied, the ceiling the full system is measured
# against. It runs before any cluster starts, so nothing else shares the cores.
#
# Then it starts a three-node Palisade cluster and a three-member etcd cluster (bench/peers.ts; OS-chosen
# loopback ports, data in a temp folder), runs the throughput harness (bench/lock-bench.ts) for
# both, uncontended and contended, at each concurrency (1, 16, 64, 256 and 1,024 workers),
# alternating backends per cell so machine noise hits both alike (with single Redis and
# Redlock over five Redis servers, also started by bench/peers.ts, as reference columns: no
# fencing, no consensus), prints the table and writes it to bench/results/latest.md. Up to
# 512 workers run in one client process; above that they are spread over one process per 512
# (at most 2), each with its own client, measured over one shared window and merged. A
# cell's window begins after WARMUP seconds once every worker has completed a cycle (at most
# WARMUP_MAX seconds: one turn of a 1,024-waiter queue takes seconds). etcd and Redis come
# from Debian (scripts/install-test-deps.sh). Everything it started is stopped on exit, by
# recorded pid.
#
# Then, each in its own process with its own cluster (bench/report.ts): failover time over
# repeated leader kills, node memory with many locks held, start-up time from a long log and
# from a snapshot, the floor of this machine and stack (bench/floor.ts), a crashed holder to
# the next grant, a frozen `palisadectl run` to its command's death, and many sessions kept
# alive through leader transfers, and a flood of the largest keepalive frames at the leader
# (its largest event-loop delay), and an election's leader killed, stopped or handing over,
# to the next leader elected and seen by every observer; then the targets, met or not. The whole report
# goes to bench/results/latest.md and latest.json (raw
# harness lines in latest.jsonl); a run of only some PARTS writes partial.* instead.
#
# `auth` measures access control instead, and writes bench/results/auth.md: the CPU cost of
# one check with a 1,000-prefix policy (bench/auth-check.ts), then the throughput harness on
# two Palisade clusters side by side, cells alternating: one open, one under that policy
# (bench/auth-setup.ts) with the harness sending a bearer token. AUTH_THROUGHPUT=0 skips the
# clusters; SECONDS_PER_RUN, WARMUP, WARMUP_MAX, PROCS, CONCS and MODES apply to it as to the throughput part.
#
# Env knobs: PARTS ("engine throughput failover memory startup floor crash-grant run-loss keepalive
#            stream-flood election-failover":
#            any subset, e.g. PARTS=failover; the parts' own knobs are in bench/report.ts),
#            ENGINE_SECONDS (3), ENGINE_BATCHES ("1 4 16 64 256 1024"), ENGINE_INFLIGHT (8),
#            ENGINE_WARMUP (1),
#            SECONDS_PER_RUN (3), WARMUP (1), WARMUP_MAX (30), CONCS ("1 16 64 256 1024"),
#            MODES ("uncontended contended"), PROCS (auto: client processes per cell, or a number),
#            SKIP_ETCD=1 (no etcd), SKIP_REDIS=1 (no Redis / Redlock reference columns), FAILOVER_KILLS (10), MEMORY_SESSIONS (10000),
#            MEMORY_LOCKS (100000), STARTUP_ENTRIES (1000000), PART_TIMEOUT (900 s per part; keepalive 1800 s unless set),
#            RESULTS_NAME (latest, or partial when PARTS is not the full set).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
cd "$REPO"
node scripts/build.mjs --if-stale
S="${SECONDS_PER_RUN:-3}"
W="${WARMUP:-1}"
WMAX="${WARMUP_MAX:-30}"
PROCS="${PROCS:-auto}"
CONCS="${CONCS:-1 16 64 256 1024}"
MODES="${MODES:-uncontended contended}"
SKIP_ETCD="${SKIP_ETCD:-0}"
SKIP_REDIS="${SKIP_REDIS:-0}"
ALL_PARTS="engine throughput failover memory startup floor crash-grant run-loss keepalive stream-flood election-failover"
PARTS="${PARTS:-$ALL_PARTS}"
PART_TIMEOUT_SET="${PART_TIMEOUT:-}"
PART_TIMEOUT="${PART_TIMEOUT:-900}"
# A run of only some parts does not replace the full report.
if [[ $PARTS == "$ALL_PARTS" ]]; then NAME="${RESULTS_NAME:-latest}"; else NAME="${RESULTS_NAME:-partial}"; fi
has_part() { [[ " $PARTS " == *" $1 "* ]]; }
LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"
# One harness run may not hang the whole benchmark. Its own bounds come first: sessions open
# in 60 s, the warm-up at most WMAX, the workers drained 15 s and the sessions closed 10 s
# after the window; a child process that outlives them is given up 45 s after the window.
RUN_TIMEOUT=$((S + (W > WMAX ? W : WMAX) + 150))

WORK="$(mktemp -d "${TMPDIR:-/tmp}/palisade-bench.XXXXXX")"
RESULTS="$WORK/results.jsonl"
PARTS_JSON="$WORK/parts.json"
FAILED_CELLS="$WORK/failed-cells" # harness runs that gave no result, "LABEL MODE c=CONC" a line
touch "$RESULTS" "$FAILED_CELLS"
ETCD_NOTE=""
ETCD_RESTARTS="" # cells after which etcd's cluster was replaced (see restart_etcd)
REDIS_NOTE=""

stop_pids() { # stop_pids FILE: TERM, wait up to 5 s, then KILL, only the pids listed in FILE
  local file="$1" pid
  [[ -f "$file" ]] || return 0
  for pid in $(cat "$file"); do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    local alive=0
    for pid in $(cat "$file"); do kill -0 "$pid" 2>/dev/null && alive=1; done
    [[ $alive == 0 ]] && break
    sleep 0.1
  done
  for pid in $(cat "$file"); do kill -KILL "$pid" 2>/dev/null || true; done
}

PART_PID=""
cleanup() {
  if [[ -n $PART_PID ]]; then
    kill -TERM "$PART_PID" 2>/dev/null || true
    wait "$PART_PID" 2>/dev/null || true
  fi
  stop_pids "$WORK/palisade/pids"
  stop_pids "$WORK/etcd/pids"
  stop_pids "$WORK/redis/pids"
  stop_pids "$WORK/auth-open/pids"
  stop_pids "$WORK/auth-policy/pids"
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run_auth() { # the `auth` mode: CPU per check, then throughput open beside under a policy
  local check="$WORK/auth-check.json" out="bench/results/auth.md"
  node dist/bench/auth-check.js --json "$check" >&2
  if [[ ${AUTH_THROUGHPUT:-1} != 0 ]]; then
    node dist/bench/palisade-cluster.js "$WORK/auth-open" >&2
    node dist/bench/palisade-cluster.js "$WORK/auth-policy" >&2
    node dist/bench/auth-setup.js "$(cat "$WORK/auth-policy/endpoints")" "$WORK/auth-policy" >&2
    auth_cell() { # auth_cell open|policy MODE CONC [RESULTS]
      local dir="$WORK/auth-$1" extra=()
      [[ $1 == policy ]] && extra=(--token-file "$WORK/auth-policy/token")
      timeout "$RUN_TIMEOUT" node dist/bench/lock-bench.js --backend palisade \
        --endpoints "$(cat "$dir/endpoints")" --server-pids "$(paste -sd, "$dir/pids")" \
        --mode "$2" --concurrency "$3" --seconds "$S" --warmup "$W" --warmup-max "$WMAX" \
        --procs "$PROCS" --out "${4:-$RESULTS}" \
        --label "palisade-$1" "${extra[@]}" >/dev/null || echo "FAILED: palisade-$1 $2 c=$3" >&2
    }
    echo "warm-up passes, not recorded:" >&2
    auth_cell open uncontended 16 /dev/null
    auth_cell policy uncontended 16 /dev/null
    for m in $MODES; do
      for c in $CONCS; do
        auth_cell open "$m" "$c"
        auth_cell policy "$m" "$c"
      done
    done
  fi
  mkdir -p bench/results
  {
    echo "## Access control"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), node $(node --version), $(nproc) CPUs"
    echo "- load average (1/5/15 min) at start: $LOAD_START; at end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- command: \`npm run bench -- auth\` (SECONDS_PER_RUN=$S WARMUP=$W WARMUP_MAX=$WMAX PROCS=$PROCS CONCS=\"$CONCS\" MODES=\"$MODES\" AUTH_THROUGHPUT=${AUTH_THROUGHPUT:-1})"
    echo
    node dist/bench/auth-report.js "$RESULTS" "$check"
  } >"$out"
  cat "$out"
}
if [[ ${1:-} == auth ]]; then
  run_auth
  exit 0
fi

run_part() { # run_part PART: bench/report.ts PART in its own process, bounded, merged into PARTS_JSON
  local part="$1" bound="$PART_TIMEOUT"
  # In the background and waited for, so that cleanup can stop it (timeout runs it in its
  # own process group, out of reach of a terminal's Ctrl-C); it forwards TERM to the part.
  # keepalive runs both systems' 100,000 sessions: it gets longer unless PART_TIMEOUT is set.
  [[ $part == keepalive && -z ${PART_TIMEOUT_SET:-} ]] && bound=1800
  timeout "$bound" node dist/bench/report.js "$part" "$PARTS_JSON" &
  PART_PID=$!
  wait "$PART_PID" || echo "FAILED or timed out: $part" >&2
  PART_PID=""
}

# --- the engine alone, in one process, before any cluster takes a core
if has_part engine; then run_part engine; fi

# --- etcd (Debian's etcd-server and etcd-client, from scripts/install-test-deps.sh)
if [[ $SKIP_ETCD != 1 ]] && ! command -v etcd >/dev/null; then
  ETCD_NOTE="etcd not found (run scripts/install-test-deps.sh); Palisade only."
  SKIP_ETCD=1
fi
export SKIP_ETCD # the other parts measure etcd too

if has_part throughput; then
if [[ $SKIP_ETCD != 1 ]]; then
  if node dist/bench/peers.js etcd "$WORK/etcd" >&2; then
    ETCD_PIDS="$(paste -sd, "$WORK/etcd/pids")"
    ETCD_ENDPOINTS="$(cat "$WORK/etcd/endpoints")"
  else
    ETCD_NOTE="etcd cluster did not start (logs were in $WORK/etcd); Palisade only."
    SKIP_ETCD=1
  fi
fi
[[ -n $ETCD_NOTE ]] && echo "$ETCD_NOTE" >&2

# --- single Redis and Redlock's five: reference columns (bench/peers.ts, OS-chosen ports)
if [[ $SKIP_REDIS != 1 ]] && ! command -v redis-server >/dev/null; then
  REDIS_NOTE="redis-server not found (run scripts/install-test-deps.sh); no Redis columns."
  SKIP_REDIS=1
fi
if [[ $SKIP_REDIS != 1 ]]; then
  if node dist/bench/peers.js redis "$WORK/redis" >&2; then
    REDIS_PID="$(head -1 "$WORK/redis/pids")"
    REDLOCK_PIDS="$(tail -n +2 "$WORK/redis/pids" | paste -sd,)"
    REDIS_SINGLE="$(cat "$WORK/redis/single")"
    REDLOCK_ENDPOINTS="$(cat "$WORK/redis/redlock")"
  else
    REDIS_NOTE="redis did not start (logs were in $WORK/redis); no Redis columns."
    SKIP_REDIS=1
  fi
fi
[[ -n $REDIS_NOTE ]] && echo "$REDIS_NOTE" >&2

# --- Palisade
node dist/bench/palisade-cluster.js "$WORK/palisade" >&2
PAL_ENDPOINTS="$(cat "$WORK/palisade/endpoints")"
PAL_PIDS="$(paste -sd, "$WORK/palisade/pids")"

cell_failed() { # cell_failed BACKEND MODE CONC: the report shows the cell's targets as failed
  echo "FAILED: $1 $2 c=$3" >&2
  [[ $RESULTS == /dev/null ]] || echo "$1 $2 c=$3" >>"$FAILED_CELLS"
}

# etcd 3.4 loses some of a few hundred waiters on one lock: their Lock calls are never
# answered, and the member's lock service stays stuck for every later Lock (see
# bench/backends/etcd-lock-api.ts). A cell that leaves Lock calls waiting after its window
# (drained: false) gets etcd's cluster replaced, so that the cells after it measure etcd
# and not the one before; the report lists those cells.
restart_etcd() { # restart_etcd CELL
  echo "etcd left Lock calls unanswered after $1: a new etcd cluster for the cells after it" >&2
  ETCD_RESTARTS+="${ETCD_RESTARTS:+, }$1"
  stop_pids "$WORK/etcd/pids"
  rm -rf "$WORK/etcd"
  node dist/bench/peers.js etcd "$WORK/etcd" >&2 || echo "etcd did not start again" >&2
  ETCD_PIDS="$(paste -sd, "$WORK/etcd/pids" 2>/dev/null || true)"
  ETCD_ENDPOINTS="$(cat "$WORK/etcd/endpoints" 2>/dev/null || echo http://127.0.0.1:1)"
}

run_one() { # run_one BACKEND MODE CONC
  local backend="$1" mode="$2" c="$3"
  local endpoints pids line
  case $backend in
    palisade) endpoints="$PAL_ENDPOINTS" pids="$PAL_PIDS" ;;
    etcd-lockapi) endpoints="$ETCD_ENDPOINTS" pids="$ETCD_PIDS" ;;
    redis-single) endpoints="$REDIS_SINGLE" pids="$REDIS_PID" ;;
    redlock) endpoints="$REDLOCK_ENDPOINTS" pids="$REDLOCK_PIDS" ;;
  esac
  if ! line="$(timeout "$RUN_TIMEOUT" node dist/bench/lock-bench.js --backend "$backend" --endpoints "$endpoints" --server-pids "$pids" \
    --mode "$mode" --concurrency "$c" --seconds "$S" --warmup "$W" --warmup-max "$WMAX" --procs "$PROCS" \
    --out "$RESULTS" --label "$backend")"; then
    cell_failed "$backend" "$mode" "$c"
  fi
  if [[ $backend == etcd-lockapi && $line == *'"drained":false'* ]]; then restart_etcd "$mode c=$c"; fi
}

# One unrecorded pass per backend first: the first seconds after a cluster starts (JIT, first
# disk writes) are slower and would otherwise land on whichever cell runs first.
warm_one() { # warm_one BACKEND
  echo "warm-up pass, not recorded:" >&2
  local saved="$RESULTS"; RESULTS=/dev/null
  run_one "$1" uncontended 16
  RESULTS="$saved"
}
BACKENDS=(palisade)
[[ $SKIP_ETCD == 1 ]] || BACKENDS+=(etcd-lockapi)
[[ $SKIP_REDIS == 1 ]] || BACKENDS+=(redis-single redlock)
for b in "${BACKENDS[@]}"; do warm_one "$b"; done

for m in $MODES; do
  for c in $CONCS; do
    for b in "${BACKENDS[@]}"; do run_one "$b" "$m" "$c"; done
  done
done
  # The throughput clusters stop here, so they take no memory or CPU from the parts below.
  stop_pids "$WORK/palisade/pids"
  stop_pids "$WORK/etcd/pids"
  stop_pids "$WORK/redis/pids"
fi

# --- failover, memory, start-up: one process each, bounded; each cleans up after itself
for part in failover memory startup floor crash-grant run-loss keepalive stream-flood election-failover; do
  has_part "$part" || continue
  run_part "$part"
done

# --- report
mkdir -p bench/results
OUT="bench/results/$NAME.md"
{
  echo "# Lock benchmark report: Palisade vs etcd Lock API (single Redis and Redlock as references)"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ), node $(node --version), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
  echo "- load average (1/5/15 min) at start: $LOAD_START; at end: $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared: figures are noisy, compare ratios within one run)"
  echo "- Redis (reference columns, unsafe: no fencing / no consensus): $(if ! has_part throughput; then echo "not run (no throughput part)."; elif [[ $SKIP_REDIS == 1 ]]; then echo "not run. $REDIS_NOTE"; else echo "Redis $(redis-server --version | cut -d' ' -f3 | sed 's/^v=//'), one server and five for Redlock, appendfsync everysec"; fi)"
  echo "- etcd: $(if [[ $SKIP_ETCD == 1 ]]; then echo "not run. $ETCD_NOTE"; else etcd --version | head -1; fi)$(if [[ -n $ETCD_RESTARTS ]]; then echo "; its cluster was replaced by a new one after cells that left Lock calls unanswered (etcd's lock service then stays stuck): $ETCD_RESTARTS"; fi)"
  echo "- throughput: ${S} s measured per cell, after ${W} s of warm-up and until every worker has completed a cycle (at most ${WMAX} s);"
  echo "  workers in one client process up to 512, else one process per 512 (at most 2; PROCS=$PROCS), merged over one window;"
  echo "  acquire+release cycles/s (cycles whose release returned in the window); handoffs/s = acquisitions by a different"
  echo "  worker than the previous holder (contended); acquire latency p50/p99/max in ms; fairness = Jain's index over the"
  echo "  workers' cycle counts (1 = even); server CPU % summed over the three members (100 = one core)."
  echo "- command: \`npm run bench\` (PARTS=\"$PARTS\" ENGINE_SECONDS=${ENGINE_SECONDS:-3} ENGINE_BATCHES=\"${ENGINE_BATCHES:-1 4 16 64 256 1024}\" ENGINE_INFLIGHT=${ENGINE_INFLIGHT:-8} ENGINE_WARMUP=${ENGINE_WARMUP:-1} SECONDS_PER_RUN=$S WARMUP=$W WARMUP_MAX=$WMAX PROCS=$PROCS CONCS=\"$CONCS\" FAILOVER_KILLS=${FAILOVER_KILLS:-10} MEMORY_SESSIONS=${MEMORY_SESSIONS:-10000} MEMORY_LOCKS=${MEMORY_LOCKS:-100000} STARTUP_ENTRIES=${STARTUP_ENTRIES:-1000000} CRASH_GRANT_RUNS=${CRASH_GRANT_RUNS:-10} CRASH_GRANT_TTL_MS=${CRASH_GRANT_TTL_MS:-2000} RUN_LOSS_RUNS=${RUN_LOSS_RUNS:-10} RUN_LOSS_TTL_MS=${RUN_LOSS_TTL_MS:-2000} KEEPALIVE_SESSIONS=${KEEPALIVE_SESSIONS:-100000} KEEPALIVE_PROCS=${KEEPALIVE_PROCS:-10} KEEPALIVE_SECONDS=${KEEPALIVE_SECONDS:-120} KEEPALIVE_TRANSFERS=${KEEPALIVE_TRANSFERS:-3} ELECTION_RUNS=${ELECTION_RUNS:-10} ELECTION_TTL_MS=${ELECTION_TTL_MS:-2000} ELECTION_CANDIDATES=${ELECTION_CANDIDATES:-3} ELECTION_OBSERVERS=${ELECTION_OBSERVERS:-2})"
  echo
  node dist/bench/render.js "$RESULTS" "$PARTS_JSON" --json "bench/results/$NAME.json" --failed-cells "$FAILED_CELLS"
} >"$OUT"
cp "$RESULTS" "bench/results/$NAME.jsonl"
cat "$OUT"
