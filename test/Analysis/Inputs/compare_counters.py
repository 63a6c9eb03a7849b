"""compare_counters.py REPORT.json METRICS.json [GROUP=NAME...]: the
counters dist-report predicts for one step against those graph-run --metrics
measured after one step. The hand-written runtime bundles name their
collective group freely; GROUP=NAME maps the report's group name (members
joined by '+') to the bundle's. Prints one line per counter; exits 1 on any
difference."""
import json
import sys

report = json.load(open(sys.argv[1]))
metrics = json.load(open(sys.argv[2]))
rename = dict(a.split("=", 1) for a in sys.argv[3:])
assert metrics["steps"] == 1, metrics["steps"]


def channel(name):
    kind, _, rest = name.partition(":")
    return kind + ":" + rename.get(rest, rest) if kind == "collective" else name


ok = True
for task in report["tasks"]:
    predicted = {channel(k): v for k, v in task["counters"].items()}
    measured = metrics["tasks"][task["name"]]["channels"]
    for name in sorted(set(predicted) | set(measured)):
        p, m = predicted.get(name), measured.get(name)
        if p == m:
            print("%s %s: %d bytes in %d messages, as predicted"
                  % (task["name"], name, m["bytes"], m["messages"]))
        else:
            ok = False
            print("%s %s: predicted %s, measured %s" % (task["name"], name, p, m))
sys.exit(0 if ok else 1)
