#!/usr/bin/env python3
"""tf-count-devices.py GRAPH.pbtxt IMPORTED.mlir

Counts placements: the nodes of a text GraphDef that carry a `device`, and
the nodes whose device the imported module (printed with
--mlir-print-debuginfo) keeps, on an op located at "FILE:NODE", on an
argument or result named NODE (or NODE:i), or in the module's
graph.node_devices. Prints both counts, the distinct devices of each side,
and every node whose device was lost or changed."""
import re
import sys

graph_path, mlir_path = sys.argv[1], sys.argv[2]

# Nodes and devices of the GraphDef (top-level `node {` blocks only).
nodes = {}
name = None
for line in open(graph_path):
    if line.startswith("node {"):
        name = None
    m = re.match(r'^  name: "(.*)"$', line)
    if m:
        name = m.group(1)
    m = re.match(r'^  device: "(.*)"$', line)
    if m and name is not None:
        # TensorFlow's legacy spelling, as DeviceAttr prints it.
        nodes[name] = re.sub(r"/(cpu|gpu):", lambda g: "/device:%s:" %
                             g.group(1).upper(), m.group(1))

text = open(mlir_path).read()
aliases = dict(re.findall(r'^(#loc\d*) = loc\("([^"]*)"', text, re.M))
kept = {}


def keep(node, device):
    if node in kept and kept[node] != device:
        print("CONFLICT %s: %s vs %s" % (node, kept[node], device))
    kept[node] = device


device_re = r'dist\.device = #dist\.device<"([^"]*)">'
for line in text.splitlines():
    # Arguments and results: {dist.device = ..., graph.name = "NODE[:i]"}.
    for attrs in re.findall(r'\{[^{}]*\}', line):
        d = re.search(device_re, attrs)
        n = re.search(r'graph\.name = "([^"]*)"', attrs)
        if d and n:
            node = n.group(1)
            if node not in nodes and ":" in node:
                node = node.rsplit(":", 1)[0]
            keep(node, d.group(1))
    # Ops: a device attribute and a trailing location.
    d = re.search(device_re, line)
    loc = re.search(r'loc\((#loc\d*|"[^"]*")\)\s*$', line)
    if d and loc and "graph.name" not in line:
        where = loc.group(1)
        where = aliases.get(where, where.strip('"'))
        keep(where.split(":", 1)[1] if ":" in where else where, d.group(1))
# The module's record of nodes that became no op.
m = re.search(r'graph\.node_devices = \{(.*?)\}\s*(?:,|\}|$)', text, re.M | re.S)
if m:
    for node, device in re.findall(r'"?([^",{}=]+?)"? = #dist\.device<"([^"]*)">',
                                   m.group(1)):
        keep(node.strip(), device)

print("graph: %d nodes with a device, %d distinct devices" %
      (len(nodes), len(set(nodes.values()))))
placed = {n: d for n, d in kept.items() if n in nodes}
print("import: %d nodes with their device, %d distinct devices" %
      (sum(1 for n, d in placed.items() if nodes[n] == d),
       len(set(placed.values()))))
for n in sorted(nodes):
    if kept.get(n) != nodes[n]:
        print("LOST %s: %s" % (n, nodes[n]))
