#!/usr/bin/env python3
"""Start the project's Java kernel N times, as nbclient does, and count the starts that hang.

Each start: the kernelspec written by lib.sh's install_kernel (with --main rapaio, a copy of it whose main
class is rapaio's own MainApp instead of KernelMain, for comparison), an AsyncKernelManager, a client whose
wait_for_ready() must see a kernel_info_reply (and an iopub message, as jupyter_client requires) within
--timeout seconds, then `1+1` must give an execute_result `2` within --timeout seconds (and with --pairs K, K
shell+control kernel_info pairs must each get their shell reply, as after a restart in JupyterLab). A start
that misses a deadline is a hang; before it is killed the script saves, in --evidence DIR/start-NNN/: the
kernel JVM's threads (`jcmd PID Thread.print`), the connection file, the sockets on its ports (`ss -tanp`),
the kernel's process tree, its stderr, and the client side's message log (every message sent and received,
with times). A kernel that exits by itself is counted as "died". The per-start line also shows KernelMain's
notes of the start-up races it closed.

    .venv/bin/python notebooks/kernel/start-stress.py --n 40 [--main approxgp|rapaio] [--pairs 5] [--burn 2]

(any Python with jupyter_client; lib.sh's find_jupyter makes .venv/). --burn K runs K busy-loop processes
for the duration of the run (bounded by the run itself), to load the machine further.
"""
import argparse
import asyncio
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

try:
    from jupyter_client.manager import AsyncKernelManager
except ImportError:
    sys.exit("start-stress.py needs jupyter_client: run it with .venv/bin/python (bin/lab or bin/reproduce make it)")

ROOT = Path(__file__).resolve().parents[2]


def install_kernelspec(main, kernel, evidence_root):
    """Runs lib.sh (build_library + install_kernel); returns the JUPYTER_PATH entry holding the kernelspec.

    main "rapaio": a copy of that kernelspec under evidence_root whose main class is rapaio's MainApp (message
    interrupts), i.e. the kernel's own start-up without KernelMain's fixes."""
    env = dict(os.environ, ROOT=str(ROOT))
    out = subprocess.run(
        ["bash", "-c", 'set -e; source "$ROOT/notebooks/kernel/lib.sh"; build_library; find_jupyter; install_kernel;'
                       ' echo "$JUPYTER_DIR"'],
        env=env, check=True, capture_output=True, text=True)
    jupyter_dir = out.stdout.strip().splitlines()[-1]
    if main == "approxgp":
        return jupyter_dir
    spec = json.loads((Path(jupyter_dir) / "kernels" / kernel / "kernel.json").read_text())
    spec["argv"] = [("org.rapaio.jupyter.kernel.MainApp" if a.endswith(".KernelMain") else a) for a in spec["argv"]]
    spec["interrupt_mode"] = "message"
    d = evidence_root / "jupyter"
    (d / "kernels" / kernel).mkdir(parents=True, exist_ok=True)
    (d / "kernels" / kernel / "kernel.json").write_text(json.dumps(spec, indent=1))
    return str(d)


def descendants(pid):
    """pid and every descendant process id (from /proc)."""
    children = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def java_pids(pid):
    res = []
    for p in descendants(pid):
        try:
            if Path(f"/proc/{p}/comm").read_text().strip() == "java":
                res.append(p)
        except OSError:
            pass
    return res


def sh(cmd, path, timeout=30):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        path.write_text(r.stdout + r.stderr)
    except Exception as e:  # evidence is best effort
        path.write_text(f"{cmd}: {e}\n")


def short(msg_id):
    """jupyter_client's ids are <session>_<pid>_<n>: keep <n>; a kernel's uuid: its first 8 characters."""
    msg_id = str(msg_id or "")
    return "c" + msg_id.rsplit("_", 1)[1] if msg_id.count("_") >= 2 else msg_id[:8]


class MessageLog:
    """Every message the client sends and receives, with the time since the kernel was started."""

    def __init__(self, t0):
        self.t0 = t0
        self.lines = []

    def add(self, direction, channel, msg):
        try:
            hdr = msg["header"]
            parent = msg.get("parent_header") or {}
            extra = ""
            if hdr["msg_type"] == "status":
                extra = " " + msg["content"].get("execution_state", "")
            elif hdr["msg_type"] == "execute_result":
                extra = " " + json.dumps(msg["content"].get("data", {}))[:80]
            self.lines.append(f"{time.monotonic() - self.t0:8.3f} {direction} {channel:7s} {hdr['msg_type']}{extra}"
                              f" id={short(hdr['msg_id'])} parent={short(parent.get('msg_id', ''))}")
        except Exception as e:
            self.lines.append(f"{time.monotonic() - self.t0:8.3f} {direction} {channel} <unparsed: {e}>")

    def wrap(self, kc):
        for name in ("shell", "iopub", "control"):
            ch = getattr(kc, f"{name}_channel")
            orig = ch.get_msg

            async def get_msg(*a, _orig=orig, _name=name, **kw):
                m = await _orig(*a, **kw)
                self.add("<-", _name, m)
                return m
            ch.get_msg = get_msg
        orig_send = kc.session.send
        names = {id(kc.shell_channel.socket): "shell", id(kc.control_channel.socket): "control"}

        def send(stream, msg_or_type, *a, **kw):
            m = orig_send(stream, msg_or_type, *a, **kw)
            if m is not None:
                self.add("->", names.get(id(stream), "?"), m)
            return m
        kc.session.send = send


async def kernel_info_pairs(kc, n, timeout):
    """What Jupyter Server does after a restart: kernel_info_request on shell and control at once, n times; each
    shell request must get its own reply (matching parent) within timeout s. Raises on the first lost reply."""
    for k in range(n):
        m1, m2 = kc.session.msg("kernel_info_request"), kc.session.msg("kernel_info_request")
        kc.shell_channel.send(m1)
        kc.control_channel.send(m2)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"shell+control kernel_info pair {k + 1}/{n}: no shell reply in {timeout:.0f} s")
            try:
                r = await kc.shell_channel.get_msg(timeout=min(left, 1))
            except Exception:
                continue
            if r["parent_header"].get("msg_id") == m1["header"]["msg_id"]:
                break


async def one_start(i, args, evidence_root, jupyter_path):
    t0 = time.monotonic()
    log = MessageLog(t0)
    km = AsyncKernelManager(kernel_name=args.kernel)
    stderr_path = evidence_root / f"stderr-{i:03d}.log"
    stderr_f = open(stderr_path, "w")
    result = {"i": i}
    try:
        await km.start_kernel(stdout=subprocess.DEVNULL, stderr=stderr_f, cwd=str(ROOT / "notebooks"))
        pid = km.provisioner.process.pid
        kc = km.client()
        kc.start_channels()
        log.wrap(kc)
        try:
            await kc.wait_for_ready(timeout=args.timeout)
            result["ready_s"] = time.monotonic() - t0
            t1 = time.monotonic()
            msg_id = kc.execute("1+1")
            got = None
            while time.monotonic() - t1 < args.timeout:
                try:
                    m = await kc.iopub_channel.get_msg(timeout=1)
                except Exception:
                    if not await km.is_alive():
                        raise RuntimeError("kernel died during 1+1")
                    continue
                if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_result":
                    data = m["content"]["data"]   # rapaio renders 1+1 as text/html "2"
                    got = str(data.get("text/plain", data.get("text/html", "")))
                    break
            if got is None:
                raise TimeoutError(f"no execute_result for 1+1 in {args.timeout} s")
            if got.strip() != "2":
                raise RuntimeError(f"1+1 gave {got!r}")
            result["exec_s"] = time.monotonic() - t1
            await kernel_info_pairs(kc, args.pairs, args.timeout)
            result["status"] = "ok"
        except Exception as e:
            alive = await km.is_alive()
            result["status"] = "hang" if alive else "died"
            result["error"] = f"{type(e).__name__}: {e}"
            result["after_s"] = time.monotonic() - t0
            if alive:
                d = evidence_root / f"start-{i:03d}"
                d.mkdir(parents=True, exist_ok=True)
                jp = java_pids(pid)
                result["evidence"] = str(d)
                (d / "pids.txt").write_text(f"launcher pid {pid}, java {jp}\n")
                for p in jp:
                    sh(["jcmd", str(p), "Thread.print", "-l"], d / f"jstack-{p}.txt")
                shutil.copy(km.connection_file, d / "connection.json")
                ports = [str(v) for k, v in json.loads(Path(km.connection_file).read_text()).items()
                         if k.endswith("_port")]
                sh(["bash", "-c", "ss -tanp | grep -E ':(" + "|".join(ports) + r")\b' || true"], d / "ss.txt")
                sh(["ps", "-o", "pid,ppid,stat,etime,time,args", "--forest", "-g",
                    str(os.getpgid(pid))], d / "ps.txt")
                sh(["uptime"], d / "uptime.txt")
                (d / "client-messages.log").write_text("\n".join(log.lines) + "\n")
                stderr_f.flush()
                shutil.copy(stderr_path, d / "kernel-stderr.log")
        finally:
            kc.stop_channels()
    finally:
        try:
            await km.shutdown_kernel(now=result.get("status") != "ok")
        except Exception as e:
            result.setdefault("error", f"shutdown: {e}")
        stderr_f.close()
    # KernelMain's notes of the races it closed (see KernelMain's class comment)
    text = stderr_path.read_text(errors="replace")
    result["threads_replaced"] = text.count("polling thread had already exited")
    result["requests_held"] = text.count("arrived before the kernel's handlers")
    if result.get("status") == "ok" and not args.keep_logs:
        stderr_path.unlink()
    else:
        (evidence_root / f"messages-{i:03d}.log").write_text("\n".join(log.lines) + "\n")
    return result


async def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--main", choices=("approxgp", "rapaio"), default="approxgp",
                    help="the kernelspec's main class: approxgp's KernelMain (default) or rapaio's MainApp")
    ap.add_argument("--kernel", default="approxgp-java")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--pairs", type=int, default=0,
                    help="after 1+1, send this many kernel_info_requests on shell and control at once (as Jupyter"
                         " Server after a restart); each shell reply must arrive")
    ap.add_argument("--burn", type=int, default=0, help="extra busy-loop processes during the run")
    ap.add_argument("--evidence", default=None, help="directory for logs (default /tmp/approxgp-stress-<time>)")
    ap.add_argument("--keep-logs", action="store_true", help="keep the stderr of good starts too")
    ap.add_argument("--debug", action="store_true", help="jupyter_client debug logging on stderr")
    args = ap.parse_args()
    if args.debug:
        logging.basicConfig(level=logging.DEBUG)
    evidence_root = Path(args.evidence or f"/tmp/approxgp-stress-{time.strftime('%H%M%S')}-{args.main}")
    evidence_root.mkdir(parents=True, exist_ok=True)
    jp = install_kernelspec(args.main, args.kernel, evidence_root)
    os.environ["JUPYTER_PATH"] = jp + (":" + os.environ["JUPYTER_PATH"] if os.environ.get("JUPYTER_PATH") else "")
    spec = json.loads((Path(jp) / "kernels" / args.kernel / "kernel.json").read_text())
    print(f"stress: {args.n} starts, main={args.main} ({spec['argv'][-2]}, {Path(spec['argv'][0]).name}), "
          f"timeout {args.timeout:.0f} s, burn {args.burn}, evidence {evidence_root}", flush=True)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.burn)]
    counts = {}
    results = []
    t_start = time.monotonic()
    try:
        for i in range(args.n):
            load = os.getloadavg()[0]
            r = await one_start(i, args, evidence_root, jp)
            r["load"] = load
            results.append(r)
            counts[r["status"]] = counts.get(r["status"], 0) + 1
            line = (f"  start {i:3d}: {r['status']:5s} load {load:5.2f}"
                    + (f" ready {r['ready_s']:5.1f} s" if "ready_s" in r else "")
                    + (f" 1+1 {r['exec_s']:5.1f} s" if "exec_s" in r else "")
                    + (f" [KernelMain: {r['threads_replaced']} exited polling threads replaced,"
                       f" {r['requests_held']} early requests held]"
                       if r["threads_replaced"] or r["requests_held"] else "")
                    + (f" {r.get('error', '')}" if r["status"] != "ok" else "")
                    + (f" evidence {r['evidence']}" if "evidence" in r else ""))
            print(line, flush=True)
    finally:
        for b in burners:
            b.kill()
            b.wait()
    (evidence_root / "results.json").write_text(json.dumps(results, indent=1))
    ready = sorted(r["ready_s"] for r in results if "ready_s" in r)
    med = ready[len(ready) // 2] if ready else float("nan")
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    raced = sum(1 for r in results if r["threads_replaced"] or r["requests_held"])
    if args.main == "approxgp":
        summary += (f" (KernelMain closed a start-up race in {raced}: "
                    f"{sum(r['threads_replaced'] for r in results)} exited polling threads replaced, "
                    f"{sum(r['requests_held'] for r in results)} early requests held)")
    print(f"stress: main={args.main}: {summary} of {args.n} starts; median ready {med:.1f} s, "
          f"max {max(ready) if ready else float('nan'):.1f} s; {time.monotonic() - t_start:.0f} s in all", flush=True)
    return 0 if counts.get("ok", 0) == args.n else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
