#!/usr/bin/env python3
"""run_doc_examples.py DOC.md: prints the ```sh blocks of a Markdown file as
one bash script (set -e), in order, so a test can run a user guide's examples
exactly as written."""
import sys

lines, inside = ["set -euo pipefail"], False
for line in open(sys.argv[1]):
    if line.startswith("```"):
        if inside:
            inside = False
        elif line.strip() == "```sh":
            inside = True
        continue
    if inside:
        lines.append(line.rstrip("\n"))
print("\n".join(lines))
