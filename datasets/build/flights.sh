#!/usr/bin/env bash
# Fetches flights-3m (npm package vega-datasets@2.11.0: data/flights-3m.parquet, data/airports.csv),
# checks every sha256, and converts the parquet file once into approxgp's column file. Idempotent: does
# nothing when the cache is complete. Called by org.approxgp.data.Flights on first use (notebooks, CLI) and
# usable by hand. Needs node and npm (Node.js 18+); everything comes through the npm client.
#
# Usage: datasets/build/flights.sh [CACHE_DIR]
#   CACHE_DIR defaults to $APPROXGP_DATA_CACHE, else <repo>/.cache/datasets (git-ignored).
# Writes CACHE_DIR/flights-3m.apc (60 MB) and CACHE_DIR/airports.csv.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cache="${1:-${APPROXGP_DATA_CACHE:-$root/.cache/datasets}}"

PKG=vega-datasets@2.11.0
TGZ_SHA256=d888f3d9f0a9799a2f6066e5dbe5ed40eb86f75b4568b493d9bdd55e9652050a
PARQUET_SHA256=756f1be82d0dbbb9acc77c3bdbcb9b994054a157ea09357a731395b6948ebf69
AIRPORTS_SHA256=903c7169e6d558eefb95295fe2947ec8503135fbb855ea5c737cf4a90ea603ad
APC_SHA256=e68e003deeafd8534bf836f19bc2d79e43f9fc679abeed170037c2c0bf003092

say() { printf 'flights-3m: %s\n' "$*" >&2; }
die() { printf 'flights-3m: error: %s\n' "$*" >&2; exit 1; }
complete() { [[ -f "$cache/flights-3m.apc" && -f "$cache/airports.csv" ]]; }
check() {  # file expected-sha256
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [[ "$got" == "$2" ]] || die "sha256 mismatch for $(basename "$1"): expected $2, got $got"
}

complete && exit 0
mkdir -p "$cache"
exec 9>"$cache/.flights.lock"
if command -v flock >/dev/null; then
  flock 9
  complete && exit 0   # another process finished it while we waited
fi
if ! { command -v node >/dev/null && command -v npm >/dev/null; }; then
  # the project installs its own tools: on Debian as root, fetch node and npm with apt (once)
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    say "node/npm missing: installing nodejs and npm with apt-get (once) ..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; } >&2 \
      || die "apt-get install nodejs npm failed; install Node.js 18+ with npm and run again"
  fi
  command -v node >/dev/null && command -v npm >/dev/null \
    || die "node and npm are needed once to fetch and convert flights-3m (Debian: apt-get install nodejs npm)"
fi

work=$(mktemp -d "$cache/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "downloading $PKG (17 MB) with npm into $cache ..."
if ! (cd "$work" && npm pack "$PKG" --loglevel=error --fetch-retries=1 --fetch-timeout=30000 >pack.log 2>&1); then
  grep -E 'npm error (code|errno|network|request to|404)' "$work/pack.log" | head -n 4 | sed 's/^/  /' >&2 || true
  die "could not download $PKG with npm (offline, or the npm registry unreachable?). Connect and run again:" \
      "datasets/build/flights.sh"
fi
tgz="$work/vega-datasets-2.11.0.tgz"
[[ -f "$tgz" ]] || die "npm pack made no $(basename "$tgz")"
check "$tgz" "$TGZ_SHA256"
tar -xzf "$tgz" -C "$work" package/data/flights-3m.parquet package/data/airports.csv
check "$work/package/data/flights-3m.parquet" "$PARQUET_SHA256"
check "$work/package/data/airports.csv" "$AIRPORTS_SHA256"

say "installing the converter's parquet reader (hyparquet, pinned in datasets/build/flights/package-lock.json) ..."
mkdir -p "$work/conv"
cp "$here/flights/package.json" "$here/flights/package-lock.json" "$here/flights/convert.mjs" "$work/conv/"
if ! (cd "$work/conv" && npm ci --loglevel=error --no-audit --no-fund --fetch-retries=1 --fetch-timeout=30000 \
      >npm.log 2>&1); then
  grep -v -e '^npm warn' "$work/conv/npm.log" | tail -n 5 | sed 's/^/  /' >&2 || true
  die "npm ci of the converter failed (offline?)"
fi
say "converting 3,000,000 rows (seconds) ..."
node "$work/conv/convert.mjs" "$work/package/data/flights-3m.parquet" "$work/flights-3m.apc" \
  "npm $PKG: data/flights-3m.parquet" "$PARQUET_SHA256"
check "$work/flights-3m.apc" "$APC_SHA256"
mv "$work/package/data/airports.csv" "$cache/airports.csv.part"
mv "$work/flights-3m.apc" "$cache/flights-3m.apc"
mv "$cache/airports.csv.part" "$cache/airports.csv"
say "ready: $cache/flights-3m.apc"
