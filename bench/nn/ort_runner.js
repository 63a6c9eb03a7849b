// ort_runner.js: times one ONNX model under ONNX Runtime (npm onnxruntime-node) for e2e.py.
//
//   node ort_runner.js SPEC.json
//
// SPEC: {"model": path, "input": name, "shape": [dims], "data": raw little-endian f32 file,
//        "threads": intra-op threads, "repeat": timed runs, "warmup": untimed runs,
//        "output": raw f32 file for the first output}
// Prints one JSON line: the ORT version, the thread configuration it ran with, median and
// minimum ms of `repeat` session.run calls after `warmup` calls, and the output's dims. The
// module is found through NODE_PATH (e2e.py installs it into a folder the benchmark owns).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  // The peer gets the same thread count as graphc: intra-op threads for the kernels, one
  // inter-op thread (sequential execution: graphc runs a model's ops in order too).
  const options = {
    intraOpNumThreads: spec.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  const session = await ort.InferenceSession.create(spec.model, options);
  const raw = fs.readFileSync(spec.data);
  const data = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const feeds = {[spec.input]: new ort.Tensor('float32', data, spec.shape)};
  let out;
  for (let i = 0; i < spec.warmup; ++i) out = await session.run(feeds);
  const times = [];
  for (let i = 0; i < spec.repeat; ++i) {
    const t = process.hrtime.bigint();
    out = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const first = out[session.outputNames[0]];
  fs.writeFileSync(spec.output, Buffer.from(first.data.buffer, first.data.byteOffset,
                                            first.data.byteLength));
  times.sort((a, b) => a - b);
  const n = times.length;
  const median = n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  console.log(JSON.stringify({
    version: ort.env.versions.node,
    intra_op_threads: options.intraOpNumThreads,
    inter_op_threads: options.interOpNumThreads,
    execution_mode: options.executionMode,
    median_ms: median,
    min_ms: times[0],
    repeat: n,
    dims: first.dims,
  }));
}

main().catch((e) => {
  // One line for the table: the first line of ORT's message.
  console.error('ort error: ' + String(e && e.message ? e.message : e).split('\n')[0]);
  process.exit(1);
});
