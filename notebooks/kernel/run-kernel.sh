#!/usr/bin/env bash
# Kernel launcher used by the approxgp-java kernelspec: execs the JVM (same process id) with SIGINT reset to
# its default, so that Jupyter's interrupt — SIGINT to the kernel's process, "interrupt_mode": "signal" —
# reaches the kernel (hooks/rapaio/.../KernelMain.java handles it by interrupting the running cell).
#
# Why the reset: a process started in the background by a non-interactive shell (`jupyter lab ... &` in a
# script, CI) has SIGINT ignored, its children inherit that, and the JVM then cannot install a SIGINT handler.
# bash itself cannot undo it (a signal ignored on entry cannot be trapped), so `env --default-signal` (coreutils
# 8.31+) or Python does.
#
# The start-up races of rapaio-jupyter-kernel 3.0.1 that made about half the kernel starts hang are
# closed in KernelMain; this launcher no longer watches the kernel's stderr for a dead shell thread.
#
# With APPROXGP_KERNEL_PIDS set to a directory (bin/reproduce does), the launcher first records its process id
# there, which the exec'd JVM keeps: Jupyter starts kernels in sessions of their own, out of reach of a signal to
# bin/reproduce's process group, and a SIGTERM'd nbconvert does not shut its kernel down, so bin/reproduce stops
# the kernels it finds there when it is stopped.
set -euo pipefail
if [[ -n "${APPROXGP_KERNEL_PIDS:-}" && -d "$APPROXGP_KERNEL_PIDS" ]]; then
  echo $$ >"$APPROXGP_KERNEL_PIDS/$$"
fi
if env --default-signal=INT true 2>/dev/null; then
  exec env --default-signal=INT "$@"
elif command -v python3 >/dev/null; then
  exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
fi
exec "$@"
