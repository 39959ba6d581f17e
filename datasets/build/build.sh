#!/bin/sh
# Rebuilds datasets/*.csv from the Debian packages (Debian 12 "bookworm" versions listed below).
# Needs: apt-get (download only, no install of the data packages), dpkg, Rscript (apt install r-base-core).
# Usage: datasets/build/build.sh            (writes into datasets/, then prints sha256 sums)
# (flights-3m is not committed: datasets/build/flights.sh fetches and converts it on first use.)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download \
  r-cran-mlbench=2.1-3-1 \
  r-cran-mass=7.3-58.2-1 \
  python3-sklearn=1.2.1+dfsg-1 \
  r-cran-boot=1.3-28.1-1 \
  liblinear-tools=2.3.0+dfsg-5 \
  r-cran-kernlab=0.9-32-1 \
  r-cran-ggplot2=3.4.1+dfsg-1
for f in *.deb; do dpkg -x "$f" root; done
sha256sum *.deb
Rscript "$here/convert.R" "$work/root" "$out"
cd "$out" && sha256sum *.csv
