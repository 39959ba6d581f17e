#!/usr/bin/env bash
# The JupyterLab browser test (run it as `bin/lab --test`): starts JupyterLab with the project's Java kernel
# on a free loopback port with a random token, serving a scratch copy of notebooks/ (so the test never edits
# the committed notebooks), and drives it with Debian's Chromium through playwright-core
# (notebooks/kernel/lab-test.mjs); then exports qp-table1 (smoke) with this environment's nbconvert and its
# sanitiser on, checking the papers' grouped tables survive it. Screenshots and the exported HTML go to $APPROXGP_REPORTS/lab
# (default reports/lab). The server and its kernels are stopped at the end, whatever happens.
#
# Chromium: used from PATH (or $CHROMIUM); otherwise installed with `apt-get install chromium` when apt-get
# exists and we are root. When neither works (or node/npm are missing) the test prints
# "lab test: SKIPPED: <reason>" and exits 0.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=lib.sh
source "$ROOT/notebooks/kernel/lib.sh"
KDIR="$ROOT/notebooks/kernel"

skip() { printf 'lab test: SKIPPED: %s\n' "$*"; exit 0; }

# 1. Chromium (Debian's package; Playwright never downloads a browser here).
find_chromium() {
  local c
  for c in "${CHROMIUM:-}" chromium chromium-browser; do
    [[ -n "$c" ]] && command -v "$c" >/dev/null && { command -v "$c"; return 0; }
  done
  return 1
}
CHROME=$(find_chromium || true)
if [[ -z "$CHROME" ]]; then
  command -v apt-get >/dev/null \
    || skip "no Chromium on PATH and no apt-get to install it (set CHROMIUM=/path/to/chromium)"
  [[ $EUID -eq 0 ]] || skip "no Chromium on PATH and not root, so no apt-get install chromium (set CHROMIUM=...)"
  say "lab test: installing Chromium with apt-get (Debian package 'chromium') ..."
  aptlog=/tmp/approxgp-apt-chromium.log
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >"$aptlog" 2>&1 \
    || { tail -5 "$aptlog" >&2; skip "apt-get install chromium failed (log $aptlog)"; }
  CHROME=$(find_chromium) || skip "apt-get installed chromium but no chromium binary is on PATH"
fi
say "lab test: browser $CHROME ($("$CHROME" --version 2>/dev/null | head -1))"

# 2. playwright-core, pinned in package.json / package-lock.json (node_modules is git-ignored).
command -v node >/dev/null && command -v npm >/dev/null || skip "node/npm not on PATH (needed for playwright-core)"
if [[ ! -f "$KDIR/node_modules/playwright-core/package.json" \
      || "$KDIR/package-lock.json" -nt "$KDIR/node_modules/.package-lock.json" ]]; then
  say "lab test: npm ci (playwright-core, no browser download) ..."
  (cd "$KDIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) \
    || die "npm ci in $KDIR failed"
fi

# 3. Library, Jupyter, kernelspec (as bin/lab).
build_library
find_jupyter lab
install_kernel

# 4. A scratch copy of the notebooks, results and settings; reports/lab for what a person would look at.
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/approxgp-lab-test.XXXXXX")
OUT="${APPROXGP_REPORTS:-$ROOT/reports}/lab"
mkdir -p "$SCRATCH/notebooks" "$SCRATCH/settings/@jupyterlab/notebook-extension" "$SCRATCH/workspaces" \
  "$SCRATCH/config" "$SCRATCH/runtime" "$OUT"
rm -f "$OUT"/*.png "$OUT"/*.html
cp "$ROOT"/notebooks/*.ipynb "$SCRATCH/notebooks/"
# Without a kernelspec (or language) in its metadata JupyterLab asks which kernel to start: the test picks
# ours in that dialog.
python3 - "$SCRATCH/notebooks/tour.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1], encoding="utf-8"))
nb["metadata"].pop("kernelspec", None)
nb["metadata"].pop("language_info", None)   # else JupyterLab starts the kernel of that language unasked
json.dump(nb, open(sys.argv[1], "w", encoding="utf-8"), indent=1, ensure_ascii=False)
PY
# Every cell stays in the DOM (JupyterLab 4 otherwise renders only the cells in view); no news pop-up.
cat >"$SCRATCH/settings/@jupyterlab/notebook-extension/tracker.jupyterlab-settings" <<'JSON'
{ "windowingMode": "none" }
JSON
mkdir -p "$SCRATCH/settings/@jupyterlab/apputils-extension"
cat >"$SCRATCH/settings/@jupyterlab/apputils-extension/notification.jupyterlab-settings" <<'JSON'
{ "fetchNews": "false", "checkForUpdates": false }
JSON
export JUPYTER_CONFIG_DIR="$SCRATCH/config" JUPYTER_RUNTIME_DIR="$SCRATCH/runtime"
export APPROXGP_MODE="${APPROXGP_MODE:-quick}"   # as bin/lab; the tour's CV experiment then runs 40 trials, long enough to interrupt
export APPROXGP_RESULTS="$SCRATCH/results" APPROXGP_REPORTS="$SCRATCH/reports"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
extra=()
[[ $EUID -ne 0 ]] || extra+=(--allow-root)
"$JUPYTER" lab --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port="$PORT" --ServerApp.port_retries=0 \
  --IdentityProvider.token="$TOKEN" --notebook-dir="$SCRATCH/notebooks" \
  --LabApp.user_settings_dir="$SCRATCH/settings" --LabApp.workspaces_dir="$SCRATCH/workspaces" \
  --MultiKernelManager.default_kernel_name="$KERNEL_NAME" --MappingKernelManager.kernel_info_timeout="$KERNEL_INFO_TIMEOUT" \
  "${extra[@]}" >"$OUT/server.log" 2>&1 &
SERVER=$!
stop_server() {
  local rc=$?
  if kill -0 "$SERVER" 2>/dev/null; then
    kill -TERM "$SERVER" 2>/dev/null || true   # Jupyter shuts its kernels down on SIGTERM
    for _ in $(seq 1 50); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER" 2>/dev/null || true
  fi
  wait "$SERVER" 2>/dev/null || true
  [[ -n "${KEEP_SCRATCH:-}" ]] || rm -rf "$SCRATCH"
  exit "$rc"
}
trap stop_server EXIT
trap 'exit 130' INT TERM

URL="http://127.0.0.1:$PORT"
for _ in $(seq 1 120); do
  curl -fsS -o /dev/null "$URL/api/status?token=$TOKEN" 2>/dev/null && break
  kill -0 "$SERVER" 2>/dev/null || { tail -20 "$OUT/server.log" >&2; die "JupyterLab exited during start-up"; }
  sleep 0.5
done
curl -fsS -o /dev/null "$URL/api/status?token=$TOKEN" || die "JupyterLab did not answer on $URL within 60 s"
say "lab test: JupyterLab on $URL (scratch $SCRATCH, APPROXGP_MODE=$APPROXGP_MODE)"

T0=$SECONDS
LAB_URL="$URL" LAB_TOKEN="$TOKEN" CHROMIUM="$CHROME" LAB_OUT="$OUT" node "$KDIR/lab-test.mjs"
say "lab test: passed in $((SECONDS - T0)) s; screenshots in $OUT"

# 5. The same sanitiser through this environment's own nbconvert (the one bin/reproduce runs), on the notebook with
# the papers' grouped tables (two header rows): qp-table1 in smoke mode, exported with sanitize_html as JupyterLab's
# default export does. In the code cells' outputs no literal tag, and exactly one literal <tbody> per library table
# (the parser's own).
T1=$SECONDS
say "lab test: $("$JUPYTER" nbconvert --version | sed 's/^/nbconvert /') at $JUPYTER: sanitised export of qp-table1 (smoke) ..."
APPROXGP_MODE=smoke "$JUPYTER" nbconvert --to html --execute --HTMLExporter.sanitize_html=True \
  --ExecutePreprocessor.kernel_name="$KERNEL_NAME" --ExecutePreprocessor.timeout=-1 \
  --ExecutePreprocessor.startup_timeout="${APPROXGP_KERNEL_STARTUP_TIMEOUT:-90}" \
  --output-dir "$OUT" --output sanitised-qp-table1 "$SCRATCH/notebooks/qp-table1.ipynb" >"$OUT/nbconvert-qp-table1.log" 2>&1 \
  || { tail -20 "$OUT/nbconvert-qp-table1.log" >&2; die "nbconvert --execute of qp-table1 failed (log $OUT/nbconvert-qp-table1.log)"; }
python3 - "$OUT/sanitised-qp-table1.html" <<'PY' || die "the sanitised nbconvert export of qp-table1 shows literal tags"
import sys
page = open(sys.argv[1], encoding="utf-8").read()
# the code cells only: nbconvert's sanitiser shows every markdown cell (here the paper's numbers as a markdown
# table) as literal tags (nbconvert issue #2016); the outputs are ours to keep clean
html = "".join(c for c in page.split('<div class="jp-Cell ')[1:] if c.startswith("jp-CodeCell"))
tables = html.count('class="approxgp"')
grouped = html.count("<b>EP</b>")
literal = {t: html.count("&lt;" + t) for t in ("table", "tr", "td", "th", "thead", "b>", "img")}
tbody = html.count("&lt;tbody")
print(f"lab test: sanitised nbconvert export: {tables} library tables ({grouped} with method groups), "
      f"literal tags {literal}, literal <tbody> {tbody}")
sys.exit(0 if tables > 0 and grouped > 0 and not any(literal.values()) and tbody == tables else 1)
PY
say "lab test: sanitised nbconvert export passed in $((SECONDS - T1)) s ($OUT/sanitised-qp-table1.html)"
