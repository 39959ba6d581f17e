#!/usr/bin/env bash
# Stopping is clean (issue 42, item 6): bin/reproduce stopped by SIGTERM to its whole process group in the middle
# of a notebook, its kernel holding a results store's lock, leaves no process of the run behind and no .lock file.
#
# Run by .ci/run after `bin/reproduce --smoke` (Jupyter and the kernelspec are installed by then). The run uses a
# results root and a reports directory in a scratch directory. To stop it at a moment when the lock is certainly
# held, the rows file of the store the smoke-pipeline notebook opens is a named pipe: the kernel takes the lock,
# then blocks reading the pipe until it is stopped. Linux only (/proc); no step is timed, except a generous bound
# on waiting for the lock so that a broken start cannot hang CI.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
results="$tmp/results"
reports="$tmp/reports"
log="$tmp/reproduce.log"

# The processes of this run: every process whose environment names its results root (bin/reproduce, nbconvert,
# the kernel JVM all inherit it); zombies have no readable environment and are not counted.
run_processes() {
  local e pid
  for e in /proc/[0-9]*/environ; do
    pid=${e#/proc/}; pid=${pid%/environ}
    if tr '\0' '\n' 2>/dev/null <"$e" | grep -qxF "APPROXGP_RESULTS=$results"; then echo "$pid"; fi
  done
}

cleanup() {
  local pid
  for pid in $(run_processes); do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "stop test: FAILED: $*" >&2
  echo "--- bin/reproduce's output:" >&2
  sed 's/^/    /' "$log" >&2 || true
  exit 1
}

# The smoke-pipeline store's file name (its config hash), from a stored-only run, which creates nothing.
probe=$("$ROOT/bin/approxgp" run smoke-pipeline --mode smoke --stored-only --results "$tmp/probe" 2>&1 || true)
hash=$(grep -oE '[0-9a-f]{16}\.jsonl' <<<"$probe" | head -n 1 | cut -d. -f1)
[[ -n "$hash" ]] || { echo "stop test: no store name in: $probe" >&2; exit 1; }
store="$results/smoke-pipeline"
mkdir -p "$store"
mkfifo "$store/$hash.jsonl"

# In a process group of its own (job control), so that the whole group can be signalled as a terminal or CI would.
set -m
APPROXGP_RESULTS="$results" APPROXGP_REPORTS="$reports" \
  "$ROOT/bin/reproduce" --smoke --notebook smoke-pipeline >"$log" 2>&1 &
pid=$!
set +m

# Wait until the kernel holds the store's lock (it then blocks on the pipe), or bin/reproduce has ended.
for ((i = 0; i < 1200; i++)); do
  [[ -e "$store/$hash.lock" ]] && break
  kill -0 "$pid" 2>/dev/null || fail "bin/reproduce ended before its kernel locked the store"
  sleep 0.5
done
[[ -e "$store/$hash.lock" ]] || fail "no lock after 10 minutes"
kernels=$(run_processes | while read -r p; do ps -o comm= -p "$p"; done | grep -c java || true)
[[ "$kernels" -ge 1 ]] || fail "no kernel JVM of the run found while the lock is held"

kill -TERM -- "-$pid"
status=0
wait "$pid" || status=$?

left=$(run_processes || true)
if [[ -n "$left" ]]; then
  ps -o pid,ppid,pgid,stat,args -p "$(tr '\n' ',' <<<"$left" | sed 's/,$//')" >&2 || true
  fail "processes of the stopped run are still running"
fi
locks=$(find "$results" -name '*.lock')
[[ -z "$locks" ]] || fail "lock files left: $locks"
[[ $status -eq 143 ]] || fail "bin/reproduce exited $status, not 143 (stopped by SIGTERM)"
echo "stop test: bin/reproduce stopped mid-notebook: no process of the run left, no lock file"
