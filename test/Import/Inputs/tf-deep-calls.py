"""Prints a text GraphDef whose node c calls f0, f0 calls f1, ... up to
f(N-1), which returns its argument: N nested function calls.

  tf-deep-calls.py N > deep.pbtxt
"""
import sys

n = int(sys.argv[1])
print('node { name: "x" op: "Placeholder" '
      'attr { key: "dtype" value { type: DT_FLOAT } } }')
print('node { name: "c" op: "f0" input: "x" }')
print('library {')
for i in range(n):
    if i + 1 < n:
        body = (f'node_def {{ name: "n" op: "f{i + 1}" input: "a" }} '
                'ret { key: "r" value: "n:r:0" }')
    else:
        body = 'ret { key: "r" value: "a" }'
    print(f'  function {{ signature {{ name: "f{i}" '
          'input_arg { name: "a" type: DT_FLOAT } '
          f'output_arg {{ name: "r" type: DT_FLOAT }} }} {body} }}')
print('}')
