#!/usr/bin/env python3
"""Puts one benchmark's generated section into docs/PERFORMANCE.md.

Usage: scripts/perf_doc.py SECTION FILE

Each benchmark script writes its results as a Markdown fragment (machine,
date, command, table). This replaces the text between the markers
<!-- begin SECTION --> and <!-- end SECTION --> with FILE's contents, or
appends a marked section when there is none yet, so every section of the
document comes from the script that measured it and reruns replace it.
"""
import pathlib
import re
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    section, fragment = sys.argv[1], pathlib.Path(sys.argv[2]).read_text().strip()
    if not re.fullmatch(r"[a-z0-9-]+", section):
        print(f"perf_doc.py: section names are lower-case words and dashes, not {section!r}", file=sys.stderr)
        return 2
    doc = pathlib.Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"
    text = doc.read_text() if doc.exists() else "# Performance\n"
    begin, end = f"<!-- begin {section} -->", f"<!-- end {section} -->"
    block = f"{begin}\n{fragment}\n{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip("\n") + f"\n\n{block}\n"
    doc.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
