#!/bin/sh
# A stand-in graphc for list-unsupported-agrees.test: --list-unsupported says
# every op is supported, yet the import refuses Relu.
case "$1" in
--list-unsupported) echo "$2: every op is supported"; exit 0 ;;
esac
echo "$1:Relu_0: error: ONNX op 'Relu' has no import rule" >&2
exit 1
