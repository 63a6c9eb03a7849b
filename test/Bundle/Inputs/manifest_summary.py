#!/usr/bin/env python3
"""manifest_summary.py: prints a bundle's manifest.json one fact per line, for FileCheck.

  manifest_summary.py BUNDLE.gjob

The manifest is protobuf's JSON form (docs/design/job-bundle.md): fields at
their default are left out and 64-bit integers may be quoted. This prints the
values a reader sees, with the defaults filled in, so tests check field values
and not the printer's layout:

  format_version 1
  name JOB
  task NAME JOB:INDEX library LIB device DEV entry ENTRY
    input|output|variable NAME DTYPE [D, ...] [file FILE] [replica_of NAME]
        [slot_of 'NAME']
  channel KEY SRC->DST DTYPE [D, ...]
  group NAME TASK,TASK
  file PATH sha256 HEX size N
"""
import json
import os
import sys


def shape(sig):
    return "[" + ", ".join(str(int(d)) for d in sig.get("shape", [])) + "]"


def signature(kind, sig):
    line = "  %s %s %s %s" % (kind, sig.get("name", ""), sig.get("dtype", ""),
                              shape(sig))
    if sig.get("file"):
        line += " file " + sig["file"]
    if sig.get("replica_of"):
        line += " replica_of " + sig["replica_of"]
    if "slot_of" in sig:
        line += " slot_of '%s'" % sig["slot_of"]
    return line


def main():
    m = json.load(open(os.path.join(sys.argv[1], "manifest.json")))
    print("format_version", m.get("format_version", 0))
    print("name", m.get("name", ""))
    for t in m.get("tasks", []):
        print("task %s %s:%d library %s device %s entry %s" % (
            t["name"], t.get("job") or "worker", int(t.get("index", 0)),
            t.get("library", ""), t.get("device", ""), t.get("entry", "")))
        for kind in ("input", "output", "variable"):
            for sig in t.get(kind + "s", []):
                print(signature(kind, sig))
    for c in m.get("channels", []):
        p = c.get("payload", {})
        print("channel %s %s->%s %s %s" % (c["key"], c["src"], c["dst"],
                                            p.get("dtype", ""), shape(p)))
    for g in m.get("collective_groups", []):
        print("group %s %s" % (g["name"], ",".join(g.get("tasks", []))))
    for f in m.get("files", []):
        print("file %s sha256 %s size %d" % (f["path"], f.get("sha256", ""),
                                             int(f.get("size", 0))))


if __name__ == "__main__":
    main()
