"""Checks that every op in a generated dialect reference has a summary and an
`Example:` in its description (house style: every op documents an example),
and, given the dialect's test folder, that every op appears in one of its
round-trip tests (ops*.mlir)."""
import glob
import os
import re
import sys

path, dialect = sys.argv[1], sys.argv[2]
test_dir = sys.argv[3] if len(sys.argv) > 3 else None
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
if test_dir:
    tests = "".join(open(f).read()
                    for f in glob.glob(os.path.join(test_dir, "ops*.mlir")))
    for s in ops:
        name = s.split("`")[0]
        if not re.search(re.escape(name) + r"\b", tests):
            bad.append(f"{name}: not in any round-trip test {test_dir}/ops*.mlir")
print(f"{dialect}: {len(ops)} ops documented")
for b in bad:
    print("error:", b)
sys.exit(1 if bad or not ops else 0)
