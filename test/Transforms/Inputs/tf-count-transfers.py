#!/usr/bin/env python3
"""tf-count-transfers.py GRAPH.pbtxt PARTITIONED.mlir FETCH...

Counts, from a placed text GraphDef alone, the transfers TensorFlow's graph
partitioner makes when it splits the graph by task: one Send/Recv pair per
distinct (tensor, destination task) whose producer runs on another task, and
one per distinct (control input, destination task) likewise. Only the nodes
the fetches need run (TF prunes the rest). A device resolves to its task as
TF's DeviceNameUtils::GetTaskName does: /job:J/replica:R/task:T, with
replica and task 0 when unset.

Control edges into a NoOp are reported apart: a NoOp computes nothing, so
graphc's importer keeps no op for it and nothing waits for its inputs (a
step ends when every task has run its program).

Then reads the dist.send ops of the partitioned module: their keys are
`NAME/SRC->DST`, NAME being the TF tensor (`node`, or `node:i` for i > 0).
A TF variable is read through an Identity (`V/read`) that graphc's import
folds into `graph.read_variable @V`, so such a tensor is named after V.
Prints both counts and MATCH when the (tensor, destination task) pairs are
the same, else MISMATCH with the difference."""
import re
import sys

graph_path, mlir_path, fetches = sys.argv[1], sys.argv[2], sys.argv[3:]

nodes = {}
cur = None
for line in open(graph_path):
    if line.startswith("node {"):
        cur = {"inputs": [], "device": "", "op": ""}
    m = re.match(r'^  (name|op|device): "(.*)"$', line)
    if m and cur is not None:
        cur[m.group(1)] = m.group(2)
        if m.group(1) == "name":
            nodes[m.group(2)] = cur
    m = re.match(r'^  input: "(.*)"$', line)
    if m and cur is not None:
        cur["inputs"].append(m.group(1))


def task_of(device):
    fields = dict(f.split(":", 1) for f in device.strip("/").split("/")
                  if ":" in f)
    return "/job:%s/replica:%s/task:%s" % (fields.get("job", "localhost"),
                                           fields.get("replica", "0"),
                                           fields.get("task", "0"))


def producer(edge):
    name = edge.lstrip("^")
    return name.split(":")[0] if not name.startswith("^") else name


# The nodes the fetches need: their ancestors through data and control.
needed = set()
stack = list(fetches)
while stack:
    n = stack.pop()
    if n in needed:
        continue
    needed.add(n)
    stack.extend(producer(i) for i in nodes[n]["inputs"])

data, control, into_noop = set(), set(), set()
for name in needed:
    node = nodes[name]
    dst = task_of(node["device"])
    for edge in node["inputs"]:
        src = producer(edge)
        if task_of(nodes[src]["device"]) == dst:
            continue
        if edge.startswith("^"):
            (into_noop if node["op"] == "NoOp" else control).add((src, dst))
        else:
            tensor = edge if ":" in edge else edge + ":0"
            data.add((tensor, dst))

print("graphdef: %d nodes run, %d tasks" %
      (len(needed), len({task_of(nodes[n]["device"]) for n in needed})))
print("graphdef: %d tensor transfers, %d control transfers "
      "(%d more into NoOps)" % (len(data), len(control), len(into_noop)))



def short(task):
    """/job:ps/replica:0/task:1 -> ps1, the dist.task name."""
    fields = dict(f.split(":", 1) for f in task.strip("/").split("/"))
    return fields["job"] + fields["task"]


def graphc_name(tensor):
    node, index = tensor.rsplit(":", 1)
    if index == "0":
        src = nodes[node]
        if src["op"] == "Identity" and nodes[producer(src["inputs"][0])]["op"] \
                in ("VariableV2", "Variable", "VarHandleOp"):
            return producer(src["inputs"][0])
        return node
    return tensor


want = {(graphc_name(t), short(d)) for t, d in data}
want |= {("^" + s, short(d)) for s, d in control}

keys = re.findall(r'dist\.send .* key "([^"]*)"', open(mlir_path).read())
got = set()
for key in keys:
    key = key.split("#")[0]
    name, edge = key.rsplit("/", 1)
    got.add((name, edge.split("->")[1]))
print("partitioned: %d dist.send, %d distinct (tensor, task)" %
      (len(keys), len(got)))
if want == got and len(keys) == len(want):
    print("MATCH")
else:
    print("MISMATCH")
    for pair in sorted(want - got):
        print("  only in the graphdef: %s -> %s" % pair)
    for pair in sorted(got - want):
        print("  only in the partition: %s -> %s" % pair)
