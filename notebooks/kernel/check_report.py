#!/usr/bin/env python3
"""Check an exported HTML report against what its notebook declares it must contain.

Each notebook declares, in its metadata,

    "approxgp": {"expect": {"tables": 1, "images": 1}}

meaning the exported HTML must contain at least that many HTML tables (``<table``) and inline
PNG images (``<img`` with a ``data:image/png`` source; nbconvert writes image/png outputs that way).
A notebook without the field fails the check, so no report passes by saying nothing.

usage: check_report.py NOTEBOOK.ipynb REPORT.html    (exit 0 ok, 1 missing content, 2 usage)
"""
import json
import re
import sys


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
        found = count(f.read())
    ok = True
    for kind, want in expect.items():
        if kind not in found:
            print(f"{argv[1]}: unknown expectation '{kind}' (known: {', '.join(found)})")
            ok = False
        elif found[kind] < int(want):
            print(f"{argv[2]}: expected at least {want} {kind}, found {found[kind]}")
            ok = False
    print(f"{argv[2]}: {'ok' if ok else 'FAILED'} (found {found}, expected {expect})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
