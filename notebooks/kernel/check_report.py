#!/usr/bin/env python3
"""Check an exported HTML report against what its notebook declares it must contain.

Each notebook declares, in its metadata,

    "approxgp": {"expect": {"tables": 1, "images": 1}}

meaning the exported HTML must contain at least that many HTML tables (``<table``) and inline
PNG images (``<img`` with a ``data:image/png`` source; nbconvert writes image/png outputs that way).
A notebook without the field fails the check, so no report passes by saying nothing.

Every report must also read as finished (``output_problems``; outputs only, never the code or Markdown the
authors wrote):

- no fragmented prints: two text outputs in a row in one cell (a cell's printed text arrives as one stream
  output per burst; ``jp-RenderedText`` blocks that are not execute results count as stream outputs);
- no record dumps: Java's ``Record.toString`` (``SomeRecord[field=``), shown instead of the display layer's view;
- no number with more than 6 significant digits in text or a table cell (the display rule is 4; the paper's own
  numbers are printed as the paper printed them, never with more than 6). Only numbers with a decimal point or an
  exponent count: integers are counts, seeds and sizes, and ids may be long;
- no ``NaN`` in text (a missing value shows as a blank cell or a word).

usage: check_report.py NOTEBOOK.ipynb REPORT.html    (exit 0 ok, 1 missing content or unfinished output, 2 usage)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_outputs import outputs  # noqa: E402

MAX_DIGITS = 6
RECORD_DUMP = re.compile(r"\b[A-Z][A-Za-z0-9_$]*\[[a-z][A-Za-z0-9_]*=")
# a decimal number or one with an exponent, not part of a word, a version (1.2.3) or a path
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE][-+]?\d))(?:[eE][-+]?\d+)?(?![\w.]*\d)(?!\.\w)")
NAN = re.compile(r"\bNaN\b")


def significant_digits(number):
    """Significant digits of a printed number: sign, exponent and leading zeros dropped ("0.00120" has 3)."""
    mantissa = re.split(r"[eE]", number.lstrip("+-"))[0]
    digits = mantissa.replace(".", "").lstrip("0")
    return len(digits)


def output_problems(html):
    """What makes a report look unfinished (see the module comment), one line per problem."""
    problems = []
    for area, outs in enumerate(outputs(html), start=1):
        where = f"output area {area}"
        for prev, cur in zip(outs, outs[1:]):
            if prev.kind == "text" and cur.kind == "text":
                problems.append(f"{where}: fragmented print: consecutive stream outputs "
                                f"{_snippet(prev.text)!r} then {_snippet(cur.text)!r}")
                break
        for out in outs:
            if out.kind == "image":
                continue
            for m in RECORD_DUMP.finditer(out.text):
                problems.append(f"{where}: record dump {_around(out.text, m)!r}")
            for m in NUMBER.finditer(out.text):
                if significant_digits(m.group()) > MAX_DIGITS:
                    problems.append(f"{where}: {m.group()} has more than {MAX_DIGITS} significant digits "
                                    f"({_around(out.text, m)!r})")
            for m in NAN.finditer(out.text):
                problems.append(f"{where}: NaN in text ({_around(out.text, m)!r})")
    return problems


def _snippet(text):
    t = " ".join(text.split())
    return t if len(t) <= 40 else t[:37] + "..."


def _around(text, m):
    return " ".join(text[max(0, m.start() - 30):m.end() + 30].split())


def count(html):
    tables = len(re.findall(r"<table\b", html, flags=re.I))
    images = len(re.findall(r"<img\b[^>]*\bsrc\s*=\s*[\"']data:image/png;base64,", html, flags=re.I))
    return {"tables": tables, "images": images}


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        meta = json.load(f).get("metadata", {})
    expect = meta.get("approxgp", {}).get("expect")
    if not isinstance(expect, dict) or not expect:
        print(f"{argv[1]}: metadata.approxgp.expect missing (e.g. {{\"tables\": 1, \"images\": 1}})")
        return 1
    with open(argv[2], encoding="utf-8") as f:
        html = f.read()
    found = count(html)
    ok = True
    for kind, want in expect.items():
        if kind not in found:
            print(f"{argv[1]}: unknown expectation '{kind}' (known: {', '.join(found)})")
            ok = False
        elif found[kind] < int(want):
            print(f"{argv[2]}: expected at least {want} {kind}, found {found[kind]}")
            ok = False
    problems = output_problems(html)
    for p in problems[:40]:
        print(f"{argv[2]}: {p}")
    if len(problems) > 40:
        print(f"{argv[2]}: ... and {len(problems) - 40} more")
    ok = ok and not problems
    print(f"{argv[2]}: {'ok' if ok else 'FAILED'} (found {found}, expected {expect}; "
          f"{len(problems)} output problem{'' if len(problems) == 1 else 's'})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
