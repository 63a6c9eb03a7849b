"""check_pipelines.py GUIDE < graph-opt --help: every graphc pipeline that
graph-opt registers (`--graphc-*` under "Pass Pipelines:") is in the guide's
pipeline table (a row starting with its name). Prints the count; exits 1 and
names the missing ones otherwise."""
import re
import sys

guide = open(sys.argv[1]).read()
pipes, in_pipes = [], False
for line in sys.stdin:
    if line.strip() == "Pass Pipelines:":
        in_pipes = True
        continue
    m = re.match(r"^      --(graphc-[\w-]+)", line)
    if in_pipes and m:
        pipes.append(m.group(1))
missing = [p for p in pipes if not re.search(r"^\| `%s[{`]" % re.escape(p), guide,
                                               re.M)]
for p in missing:
    print("pipeline %s is not in %s" % (p, sys.argv[1]))
print("%d pipelines documented" % (len(pipes) - len(missing)))
sys.exit(1 if missing or not pipes else 0)
