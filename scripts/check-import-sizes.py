#!/usr/bin/env python3
# check-import-sizes.py: keeps lib/Import navigable.
#
# Fails when a file under the given folder is longer than --max-file lines or a
# top-level function (signature at column 0, body up to the next `}` at column
# 0, as clang-format lays them out) is longer than --max-function lines.
# Functions over the limit would be listed in ALLOWED with their size: each
# may shrink but not grow, and an entry that is no longer needed is an error
# too, so the list only gets shorter. It is empty now.
import argparse
import os
import re
import sys

# "path relative to the folder:function" -> the most lines it may have.
# Empty: every function is within the limit; keep it so.
ALLOWED = {}
# Files still over the limit, likewise: path -> the most lines it may have.
ALLOWED_FILES = {}

SKIP = re.compile(r"^(namespace|using|class|struct|enum|template|#|//|"
                  r"static_assert|extern|typedef|\}|$)")


def functions(lines):
    """Yields (name, first line, length) of each top-level function."""
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if re.match(r"^(class|struct|enum)\b.*\{$", line):
            # A type's body: its inline members are not measured.
            while i < n and not lines[i].startswith("};"):
                i += 1
            i += 1
            continue
        if not line[:1].strip() or SKIP.match(line):
            i += 1
            continue
        # A signature (possibly several lines) ends with `{` or `;`.
        j = i
        while j < n and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if j >= n:
            break
        head = " ".join(l.strip() for l in lines[i:j + 1])
        if lines[j].rstrip().endswith(";") or "(" not in head or \
                re.search(r"=\s*\{$", head):
            # A declaration, or a table (`= {` ... `};`).
            k = j
            if head.endswith("{"):
                while k < n and not lines[k].startswith("};"):
                    k += 1
            i = k + 1
            continue
        k = j + 1
        while k < n and not re.match(r"^\}(\s*//.*)?\s*$", lines[k]):
            k += 1
        m = re.search(r"([\w:~]+)\s*\(", head)
        yield (m.group(1) if m else head[:40]), i + 1, k - i + 1
        i = k + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--max-file", type=int, default=1200)
    ap.add_argument("--max-function", type=int, default=200)
    args = ap.parse_args()
    errors = []
    seen = set()
    files = 0
    for root, _, names in os.walk(args.folder):
        for name in sorted(names):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, args.folder)
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            files += 1
            file_limit = ALLOWED_FILES.get(rel, args.max_file)
            if rel in ALLOWED_FILES:
                seen.add(rel)
            if len(lines) - 1 > file_limit:
                errors.append(f"{rel}: {len(lines) - 1} lines (at most "
                              f"{file_limit}); split it by op family")
            for func, first, length in functions(lines):
                key = f"{rel}:{func}"
                limit = ALLOWED.get(key, args.max_function)
                if key in ALLOWED:
                    seen.add(key)
                if length > limit:
                    errors.append(f"{rel}:{first}: {func} is {length} lines "
                                  f"(at most {limit}); split it")
    for key in sorted((set(ALLOWED) | set(ALLOWED_FILES)) - seen):
        errors.append(f"{key}: listed in ALLOWED but not found; remove the "
                      f"entry")
    for e in errors:
        print("check-import-sizes: " + e)
    print(f"check-import-sizes: {files} files, {len(errors)} problems; "
          f"still over the limits: {len(ALLOWED_FILES)} files, "
          f"{len(ALLOWED)} functions")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
