#!/usr/bin/env bash
# Kernel launcher used by the approxgp-java kernelspec: runs the Java kernel and watches its stderr.
#
# rapaio-jupyter-kernel 3.0.1 binds its ZeroMQ sockets before it installs its message handlers
# (it builds JShell in between, seconds on a loaded machine). A kernel_info_request arriving in
# that window kills the kernel's shell thread ("Exception in thread "Shell-0" ...
# this.handlers is null") and the kernel then never answers, so Jupyter would wait for the whole
# start-up timeout. This launcher kills such a kernel at once; bin/reproduce then retries.
#
# The launcher execs the JVM (same process id, SIGINT not ignored as it would be for a background job),
# so Jupyter's interrupt — SIGINT to the kernel's process group, "interrupt_mode": "signal" — reaches the
# kernel (see hooks/rapaio/.../KernelMain.java); the stderr watcher ignores SIGINT.
set -uo pipefail
self=$$
watch_stderr() {
  trap '' INT
  local line
  while IFS= read -r line; do
    printf '%s\n' "$line" >&2
    if [[ "$line" == *'Exception in thread "Shell-0"'* ]]; then
      echo "approxgp: the kernel's shell thread died during start-up (known rapaio-jupyter-kernel race); stopping the kernel" >&2
      kill -KILL "$self" 2>/dev/null
    fi
  done
}
# A process started in the background by a non-interactive shell (`jupyter lab ... &` in a script, CI) has
# SIGINT ignored, its children inherit that, and the JVM then cannot install a SIGINT handler: reset SIGINT
# to its default before the exec (bash itself cannot: a signal ignored on entry cannot be trapped).
if env --default-signal=INT true 2>/dev/null; then
  reset=(env --default-signal=INT)
elif command -v python3 >/dev/null; then
  reset=(python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])')
else
  reset=()
fi
exec "${reset[@]}" "$@" 2> >(watch_stderr)
