"""Checks that every op in a generated dialect reference has a summary and an
`Example:` in its description (house style: every op documents an example)."""
import re
import sys

path, dialect = sys.argv[1], sys.argv[2]
text = open(path).read()
sections = re.split(r"\n### `", text)[1:]
ops = [s for s in sections if s.split("`")[0].startswith(dialect + ".")]
bad = []
for s in ops:
    name = s.split("`")[0]
    if "Example" not in s:
        bad.append(f"{name}: no Example")
    if not re.search(r"\n_[^_\n]+_\n", s):
        bad.append(f"{name}: no summary")
print(f"{dialect}: {len(ops)} ops documented")
for b in bad:
    print("error:", b)
sys.exit(1 if bad or not ops else 0)
