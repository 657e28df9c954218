#!/usr/bin/env bash
# Makes a development certificate authority and the certificates of a Palisade cluster
# with openssl. For development and tests only: the keys are not protected.
#
#   scripts/dev-certs.sh [DIR] [NODES]
#
# DIR (default ./certs) receives:
#   ca.crt ca.key              the cluster CA (reused if DIR already holds one)
#   node-<id>.crt/.key         one per node, id 1..NODES (default 3): OU=node, CN=node-<id>
#   admin.crt admin.key        OU=admin: AdminService and LockService
#   client.crt client.key      OU=client: LockService only
# Node certificates are valid for localhost, 127.0.0.1 and ::1, plus the comma-separated
# host names or IP addresses in $PALISADE_CERT_HOSTS (e.g. "node1.example.com,10.0.0.5").
set -euo pipefail

dir=${1:-certs}
nodes=${2:-3}
days=${PALISADE_CERT_DAYS:-825}
[[ "$nodes" =~ ^[0-9]+$ ]] || { echo "dev-certs: NODES must be a number, got '$nodes'" >&2; exit 1; }
command -v openssl >/dev/null || { echo "dev-certs: openssl is not installed" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"

if [[ ! -f ca.crt || ! -f ca.key ]]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 -days "$days" \
    -keyout ca.key -out ca.crt -subj "/O=palisade/CN=palisade development CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
fi

san="DNS:localhost,IP:127.0.0.1,IP:::1"
IFS=',' read -r -a extra <<< "${PALISADE_CERT_HOSTS:-}"
for host in "${extra[@]}"; do
  host=${host// /}
  [[ -z "$host" ]] && continue
  if [[ "$host" =~ ^[0-9.]+$ || "$host" == *:* ]]; then san="$san,IP:$host"; else san="$san,DNS:$host"; fi
done

# issue NAME SUBJECT USAGE [SAN]
issue() {
  local name=$1 subject=$2 usage=$3 alt=${4:-}
  local ext
  ext=$(mktemp)
  {
    echo "basicConstraints=critical,CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$usage"
    [[ -n "$alt" ]] && echo "subjectAltName=$alt"
  } > "$ext"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
    -keyout "$name.key" -out "$name.csr" -subj "$subject" 2>/dev/null
  openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 -days "$days" \
    -extfile "$ext" -out "$name.crt" 2>/dev/null
  rm -f "$name.csr" "$ext"
  chmod 600 "$name.key"
}

for ((id = 1; id <= nodes; id++)); do
  issue "node-$id" "/O=palisade/OU=node/CN=node-$id" "serverAuth,clientAuth" "$san"
done
issue admin "/O=palisade/OU=admin/CN=admin" "clientAuth"
issue client "/O=palisade/OU=client/CN=client" "clientAuth"
chmod 600 ca.key

echo "certificates for $nodes nodes, admin and client written to $(pwd)"
