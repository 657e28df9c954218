#!/usr/bin/env bash
# Debian packages the test suite needs: PostgreSQL (the fence's PostgreSQL adapter is
# tested against a throwaway server that the tests start themselves), Python with gRPC
# for the Python client, Chromium and promtool for the status page and the metrics
# configuration, and the chaos suite's tools. Idempotent: when the packages are
# there already it installs nothing.
set -euo pipefail

# --- Chaos suite (npm run chaos) and the namespace tests: network namespaces, iptables/nftables
# partitions and loss, the C shims in chaos/fault/c (built on demand with gcc; the packet
# delayer links libnetfilter-queue), libfaketime for clock jumps, iproute2 for `ip netns`,
# redis-server for `--compare redlock,redis` and the benchmark's Redis columns. Placed
# before the PostgreSQL block because that block exits early once PostgreSQL is present.
# Idempotent: installs nothing when all are there.
chaos_missing=()
for pkg in iptables nftables faketime libfaketime libnetfilter-queue-dev gcc iproute2 redis-server; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || chaos_missing+=("$pkg")
done
if [ "${#chaos_missing[@]}" -eq 0 ]; then
  echo "install-test-deps: chaos packages present"
else
  chaos_sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then chaos_sudo="sudo"; else
      echo "install-test-deps: missing ${chaos_missing[*]}; run as root: apt-get install -y ${chaos_missing[*]}" >&2
      exit 1
    fi
  fi
  echo "install-test-deps: installing ${chaos_missing[*]}"
  $chaos_sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  $chaos_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${chaos_missing[@]}"
fi
# --- end of the chaos suite block

# --- Models (npm run model): the SPIN model checker; pan, the verifier it generates, is compiled
# with gcc (installed by the chaos block above). Idempotent: installs nothing when it is there.
if dpkg-query -W -f='${Status}' spin 2>/dev/null | grep -q "install ok installed"; then
  echo "install-test-deps: spin present"
else
  model_sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then model_sudo="sudo"; else
      echo "install-test-deps: missing spin; run as root: apt-get install -y spin" >&2
      exit 1
    fi
  fi
  echo "install-test-deps: installing spin"
  $model_sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  $model_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends spin
fi
# --- end of the models block

# --- Benchmark peers (npm run bench): a three-member etcd cluster next to Palisade, started
# and stopped by the benchmark itself on loopback (the packages start no daemon). Redis for
# the single-server and Redlock columns comes from the chaos block above. Idempotent:
# installs nothing when both are there.
bench_missing=()
for pkg in etcd-server etcd-client; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || bench_missing+=("$pkg")
done
if [ "${#bench_missing[@]}" -eq 0 ]; then
  echo "install-test-deps: benchmark peer packages present"
else
  bench_sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then bench_sudo="sudo"; else
      echo "install-test-deps: missing ${bench_missing[*]}; run as root: apt-get install -y ${bench_missing[*]}" >&2
      exit 1
    fi
  fi
  echo "install-test-deps: installing ${bench_missing[*]}"
  $bench_sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  $bench_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${bench_missing[@]}"
fi
# --- end of the benchmark peers block

# --- Python client (clients/python): Debian's Python 3 with gRPC and protobuf, protoc and
# grpc_python_plugin to generate its stubs (scripts/gen-python.sh; a unit test checks the
# committed ones), mypy to type-check it, venv, setuptools and wheel to install it as a
# package (pyproject.toml) the way its README says. /usr/bin/python3 is the interpreter that sees
# these packages. Idempotent: installs nothing when all are there.
python_missing=()
for pkg in python3 python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc mypy python3-venv python3-setuptools python3-wheel; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || python_missing+=("$pkg")
done
if [ "${#python_missing[@]}" -eq 0 ]; then
  echo "install-test-deps: Python client packages present"
else
  python_sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then python_sudo="sudo"; else
      echo "install-test-deps: missing ${python_missing[*]}; run as root: apt-get install -y ${python_missing[*]}" >&2
      exit 1
    fi
  fi
  echo "install-test-deps: installing ${python_missing[*]}"
  $python_sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  $python_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${python_missing[@]}"
fi
# --- end of the Python client block

# --- Status page and observability: Debian's chromium for the browser test (driven by
# playwright-core, which must never download a browser of its own), prometheus for
# promtool (the alert rules and the Grafana dashboard's queries are checked with it).
# (systemd-analyze, which verifies the unit example, is used where the machine has it.)
# Idempotent: installs nothing when all are there.
observe_missing=()
for pkg in chromium prometheus; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || observe_missing+=("$pkg")
done
if [ "${#observe_missing[@]}" -eq 0 ]; then
  echo "install-test-deps: chromium and promtool present"
else
  observe_sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then observe_sudo="sudo"; else
      echo "install-test-deps: missing ${observe_missing[*]}; run as root: apt-get install -y ${observe_missing[*]}" >&2
      exit 1
    fi
  fi
  echo "install-test-deps: installing ${observe_missing[*]}"
  $observe_sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  $observe_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${observe_missing[@]}"
fi
# --- end of the status page and observability block

have_postgres() {
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null
}

if have_postgres; then
  echo "install-test-deps: PostgreSQL present ($(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1))"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "install-test-deps: PostgreSQL is missing; run as root: apt-get update && apt-get install -y postgresql" >&2
    exit 1
  fi
fi

echo "install-test-deps: installing PostgreSQL from Debian packages"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
have_postgres || { echo "install-test-deps: PostgreSQL binaries not found after install" >&2; exit 1; }
