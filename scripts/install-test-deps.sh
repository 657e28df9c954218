#!/usr/bin/env bash
# Debian packages the test suite needs: PostgreSQL (the fence's PostgreSQL adapter is
# tested against a throwaway server that the tests start themselves), Python with gRPC
# for the Python client, Chromium and promtool for the status page and the metrics
# configuration, and the chaos suite's tools. Idempotent: when the packages are
# there already it installs nothing.
set -euo pipefail

# Installs Debian packages "$@" (after "$1", what to tell a user who is neither root nor has
# sudo) with apt-get, as root or through sudo.
apt_install() {
  local hint=$1
  shift
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
      echo "install-test-deps: $hint" >&2
      exit 1
    fi
  fi
  echo "install-test-deps: installing $*"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

# Installs the Debian packages among "$@" (after the label "$1") that are missing; prints the
# label as present when none is.
ensure_packages() {
  local what=$1
  shift
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-test-deps: $what present"
    return 0
  fi
  apt_install "missing ${missing[*]}; run as root: apt-get install -y ${missing[*]}" "${missing[@]}"
}

# --- Chaos suite (npm run chaos) and the namespace tests: network namespaces, iptables/nftables
# partitions and loss, the C shims in chaos/fault/c (built on demand with gcc; the packet
# delayer links libnetfilter-queue), libfaketime for clock jumps, iproute2 for `ip netns`,
# redis-server for `--compare redlock,redis` and the benchmark's Redis columns. Placed
# before the PostgreSQL block because that block exits early once PostgreSQL is present.
# Idempotent: installs nothing when all are there.
ensure_packages "chaos packages" iptables nftables faketime libfaketime libnetfilter-queue-dev gcc iproute2 redis-server
# --- end of the chaos suite block

# --- Models (npm run model): the SPIN model checker; pan, the verifier it generates, is compiled
# with gcc (installed by the chaos block above). Idempotent: installs nothing when it is there.
ensure_packages "spin" spin
# --- end of the models block

# --- Benchmark peers (npm run bench): a three-member etcd cluster next to Palisade, started
# and stopped by the benchmark itself on loopback (the packages start no daemon). Redis for
# the single-server and Redlock columns comes from the chaos block above. Idempotent:
# installs nothing when both are there.
ensure_packages "benchmark peer packages" etcd-server etcd-client
# --- end of the benchmark peers block

# --- Python client (clients/python): Debian's Python 3 with gRPC and protobuf, protoc and
# grpc_python_plugin to generate its stubs (scripts/gen-python.sh; a unit test checks the
# committed ones), mypy to type-check it, venv, setuptools and wheel to install it as a
# package (pyproject.toml) the way its README says. /usr/bin/python3 is the interpreter that sees
# these packages. Idempotent: installs nothing when all are there.
ensure_packages "Python client packages" python3 python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc mypy python3-venv python3-setuptools python3-wheel
# --- end of the Python client block

# --- Status page and observability: Debian's chromium for the browser test (driven by
# playwright-core, which must never download a browser of its own), prometheus for
# promtool (the alert rules and the Grafana dashboard's queries are checked with it).
# (systemd-analyze, which verifies the unit example, is used where the machine has it.)
# Idempotent: installs nothing when all are there.
ensure_packages "chromium and promtool" chromium prometheus
# --- end of the status page and observability block

have_postgres() {
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null
}

if have_postgres; then
  echo "install-test-deps: PostgreSQL present ($(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1))"
  exit 0
fi

apt_install "PostgreSQL is missing; run as root: apt-get update && apt-get install -y postgresql" postgresql
have_postgres || { echo "install-test-deps: PostgreSQL binaries not found after install" >&2; exit 1; }
