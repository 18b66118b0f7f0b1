#!/usr/bin/env bash
# Installs the Debian packages floe builds, runs and tests with (DESIGN.md
# "Dependencies"). Idempotent: installs only what is missing, so it is cheap
# to call from every `make` entry point.
set -euo pipefail

pkgs=(
  build-essential pkg-config
  libpg-query-dev libprotobuf-c-dev
  libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libbrotli-dev
  libxxhash-dev libroaring-dev
  libsqlite3-dev libpq-dev libjansson-dev libedit-dev libcmocka-dev libssl-dev
  librocksdb-dev libcurl4-openssl-dev libmicrohttpd-dev
)
# Test-only tools: the reference PostgreSQL, libFuzzer (clang), node for the
# interop readers in ../shared/tools/interop.
if [ "${1:-}" = "--test" ]; then
  pkgs+=(clang libclang-rt-14-dev postgresql-15 postgresql-client-15 python3 python3-psycopg python3-psycopg2 python3-sqlalchemy libpostgresql-jdbc-java openssl)
  command -v javac >/dev/null 2>&1 || pkgs+=(default-jdk-headless)
  command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
  command -v npm  >/dev/null 2>&1 || pkgs+=(npm)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
