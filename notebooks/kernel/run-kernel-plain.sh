#!/usr/bin/env bash
# Kernel launcher used by the approxgp-java kernelspec: runs the Java kernel and watches its stderr.
#
# rapaio-jupyter-kernel 3.0.1 binds its ZeroMQ sockets before it installs its message handlers
# (it builds JShell in between, seconds on a loaded machine). A kernel_info_request arriving in
# that window kills the kernel's shell thread ("Exception in thread "Shell-0" ...
# this.handlers is null") and the kernel then never answers, so Jupyter would wait for the whole
# start-up timeout. This launcher kills such a kernel at once; bin/reproduce then retries.
set -uo pipefail
fifo=$(mktemp -u "${TMPDIR:-/tmp}/approxgp-kernel-XXXXXX")
mkfifo "$fifo"
"$@" 2>"$fifo" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
while IFS= read -r line; do
  printf '%s\n' "$line" >&2
  if [[ "$line" == *'Exception in thread "Shell-0"'* ]]; then
    echo "approxgp: the kernel's shell thread died during start-up (known rapaio-jupyter-kernel race); stopping the kernel" >&2
    kill -KILL "$pid" 2>/dev/null
  fi
done <"$fifo"
wait "$pid"
rc=$?
rm -f "$fifo"
exit "$rc"
