#!/usr/bin/env python3
"""Write REPORTS/index.html: one row per notebook report (bin/reproduce calls this after its runs).

usage: make_index.py REPORTS_DIR NOTEBOOKS_DIR

Per report: the paper and what it reproduces, the mode and kernel it ran with and when (from
REPORTS/.stamps/NAME, written by bin/reproduce), and its headline agreement line, taken from the
exported HTML report itself, so notebooks need no extra output file:

  1. a printed line starting with "Agreement:" (the convention; a notebook that wants to choose its
     headline prints one), else
  2. the output of the last code cell whose source mentions "agree": when several of its lines carry a
     verdict ("agrees" / "DISAGREES" / "DIFFERS"), "k of n checks agree", else its printed lines joined
     by "; " when there are at most 4, else its first.

Paper and description come from notebook metadata "approxgp": {"paper": ..., "reproduces": ...} when
present, else from the notebook's title ("QP paper, Table 1: ..." -> paper "QP paper", "Table 1: ...").
Standard library only.
"""
import datetime
import html
import json
import os
import re
import sys

VERDICT = re.compile(r"\b(agrees|DISAGREES|DIFFERS)\b")


def cells_of_report(text):
    """[(source, [stdout text, ...]), ...] for the code cells of an nbconvert HTML report."""
    cells = []
    for chunk in re.split(r'<div\s+class="jp-Cell\s', text)[1:]:
        if "jp-CodeCell" not in chunk[:200]:
            continue
        pres = re.findall(r"<pre>(.*?)</pre>", chunk, flags=re.S)
        source = strip(pres[0]) if pres else ""
        # printed text (nbconvert renders stdout as text/plain; some versions say vnd.jupyter.stdout)
        outs = [strip(m) for m in re.findall(
            r'jp-RenderedText[^"]*" data-mime-type="(?:text/plain|application/vnd\.jupyter\.stdout)"[^>]*>\s*<pre>(.*?)</pre>',
            chunk, flags=re.S)]
        cells.append((source, outs))
    return cells


def strip(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def headline(cells):
    for _, outs in cells:
        for out in outs:
            for line in out.splitlines():
                if line.startswith("Agreement:"):
                    return line[len("Agreement:"):].strip()
    for source, outs in reversed(cells):
        if "agree" not in source.lower():
            continue
        lines = [l.strip() for out in outs for l in out.splitlines() if l.strip()]
        verdicts = [VERDICT.search(l).group(1) for l in lines if VERDICT.search(l)]
        if len(verdicts) >= 2:
            ok = sum(v == "agrees" for v in verdicts)
            return f"{ok} of {len(verdicts)} checks agree" + ("" if ok == len(verdicts) else " (see the report)")
        if lines:
            # a few lines are one verdict each (e.g. one per reading of the method): all of them
            return "; ".join(lines) if len(lines) <= 4 else lines[0]
    return ""


def title_of(nb):
    for c in nb.get("cells", []):
        if c.get("cell_type") == "markdown":
            for line in "".join(c.get("source", "")).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return ""


def describe(nb):
    meta = nb.get("metadata", {}).get("approxgp", {})
    title = title_of(nb)
    m = re.match(r"^(.*?\bpaper)\b[,:]?\s*(.*)$", title)
    paper = meta.get("paper") or (m.group(1) if m else "")
    what = meta.get("reproduces") or (m.group(2) if m and m.group(2) else title)
    return paper, what


def main(reports, notebooks):
    rows = []
    for name in sorted(f[:-6] for f in os.listdir(notebooks) if f.endswith(".ipynb")):
        report = os.path.join(reports, name + ".html")
        if not os.path.isfile(report):
            continue
        with open(os.path.join(notebooks, name + ".ipynb"), encoding="utf-8") as f:
            nb = json.load(f)
        paper, what = describe(nb)
        stamp = os.path.join(reports, ".stamps", name)
        if os.path.isfile(stamp):
            parts = open(stamp, encoding="utf-8").read().split()
            mode, kernel, status = (parts[1], parts[2], "ok") if len(parts) >= 3 else ("?", "?", "ok")
        else:
            mode, kernel, status = "?", "?", "failed (or made by an older run)"
        when = datetime.datetime.fromtimestamp(os.path.getmtime(report), datetime.timezone.utc)
        with open(report, encoding="utf-8", errors="replace") as f:
            head = headline(cells_of_report(f.read()))
        rows.append((name, paper, what, mode, kernel, status, when.strftime("%Y-%m-%d %H:%M UTC"), head))

    e = html.escape
    body = []
    for name, paper, what, mode, kernel, status, when, head in rows:
        cls = "" if status == "ok" else ' class="failed"'
        body.append(f'<tr{cls}><td><a href="{e(name)}.html">{e(name)}</a></td><td>{e(paper) or "&mdash;"}</td>'
                    f'<td>{e(what)}</td><td>{e(mode)}</td><td>{e(when)}</td>'
                    f'<td>{e(head) or "&mdash;"}</td><td>{e(status)}</td></tr>')
    lab = ""
    lab_dir = os.path.join(reports, "lab")
    if os.path.isdir(lab_dir):
        shots = sorted(f for f in os.listdir(lab_dir) if f.endswith(".png") and f != "failure.png")
        if shots:
            lab = ("<h2>JupyterLab browser test (<code>bin/lab --test</code>)</h2><p>"
                   + " &middot; ".join(f'<a href="lab/{e(s)}">{e(s[:-4])}</a>' for s in shots) + "</p>")
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>approxgp reports</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border-bottom: 1px solid #ccc; padding: 0.35em 0.8em; text-align: left; vertical-align: top; }}
th {{ background: #f2f2f2; }}
tr.failed td {{ background: #fde8e8; }}
td:nth-child(6) {{ font-family: monospace; font-size: 90%; max-width: 40em; }}
td:first-child, td:nth-child(5) {{ white-space: nowrap; }}
</style></head><body>
<h1>approxgp reports</h1>
<p>One row per notebook report in this directory, written by <code>bin/reproduce</code>. "Agreement" is the
report's headline check against the paper (its full tables and figures are in the report); mode is
smoke / quick / full (see <code>bin/reproduce --help</code>).</p>
<table>
<thead><tr><th>report</th><th>paper</th><th>reproduces</th><th>mode</th><th>made</th><th>agreement</th>
<th>status</th></tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table>
{lab}
</body></html>
"""
    out = os.path.join(reports, "index.html")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(out + ".tmp", out)
    return out, len(rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, n = main(sys.argv[1], sys.argv[2])
    print(f"index: {path} ({n} reports)")
