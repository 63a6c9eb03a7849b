"""expect_exit.py CODE -- CMD...: runs CMD, copies its stderr to stdout (for
FileCheck) and fails unless it exited with CODE."""
import subprocess
import sys

code = int(sys.argv[1])
assert sys.argv[2] == "--"
p = subprocess.run(sys.argv[3:], stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, text=True, timeout=120)
sys.stdout.write(p.stderr)
if p.returncode != code:
    sys.exit("expected exit %d, got %d: %s" % (code, p.returncode,
                                               " ".join(sys.argv[3:])))
