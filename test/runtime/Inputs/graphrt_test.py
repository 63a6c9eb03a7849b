#!/usr/bin/env python3
"""graphrt_test.py: builds test job bundles and checks graph-run's results with NumPy.

  graphrt_test.py pair-bundle DIR LIBDIR     # DIR/pair.gjob, DIR/x.npy
  graphrt_test.py coll-bundle K DIR LIBDIR   # DIR/coll.gjob, DIR/x<r>.npy
  graphrt_test.py feed-bundle DIR LIBDIR [N] # DIR/feed.gjob, x/y .npy/.csv
  graphrt_test.py check-feed OUT N SEED SHUFFLE PARTIAL STEPS
  graphrt_test.py check-save FILE DIR SEED STEPS   # --save of the feed job
  graphrt_test.py check-checkpoint FILE BUNDLE DIR SEED
  graphrt_test.py same-weights A B   # two safetensors files, tensor by tensor
  graphrt_test.py dump-safetensors FILE
  graphrt_test.py restart-test SEED KILLS STEPS DIR  # --max-restarts vs kills
  graphrt_test.py check-pair DIR STEPS [OUT] # compares OUT (DIR/out)/*.npy
  graphrt_test.py check-traffic METRICS BUNDLE STEPS  # --metrics byte counts
  graphrt_test.py check-image CONTEXT DOCKERFILE BINDIR TASKLIB  # deploy/k8s
  graphrt_test.py check-coll K DIR
  graphrt_test.py run --expect-exit N --max-seconds S -- CMD...
  graphrt_test.py kill-task TASK SECONDS|file:PATH -- CMD...  # kill -9 mid-run
  graphrt_test.py cluster N WORKER DIR [WORKER_ARG...] -- CMD...
                                     # @CLUSTER@ in CMD: the file
  graphrt_test.py certs DIR          # a test CA and certificates (openssl)
  graphrt_test.py stop-task TASK SECONDS -- CMD...  # SIGSTOP mid-run

Expected values are computed here, independently of the runtime.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

N = 100000      # PairTask.cpp kN
BLOCK = 1001    # CollectiveTask.cpp kBlock


def sig(name, dtype, shape, file=None):
    s = {"name": name, "dtype": dtype, "shape": list(shape)}
    if file:
        s["file"] = file
    return s


def write_bundle(out, manifest, files):
    """Copies `files` (bundle path -> source) into `out` and writes the manifest
    with their sha256 and sizes."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    manifest["files"] = []
    for path, src in sorted(files.items()):
        shutil.copyfile(src, os.path.join(out, path))
        data = open(src, "rb").read()
        manifest["files"].append({"path": path,
                                  "sha256": hashlib.sha256(data).hexdigest(),
                                  "size": len(data)})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)


def pair_bundle(d, libdir):
    rng = np.random.default_rng(1)
    x = rng.integers(-50, 50, size=N).astype(np.float32)
    acc0 = rng.integers(-9, 9, size=N).astype(np.float32)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "acc0.npy"), acc0)
    acc0.tofile(os.path.join(d, "acc0.bin"))
    manifest = {
        "format_version": 1,
        "name": "pair",
        "tasks": [
            {"name": "producer", "job": "worker", "index": 0,
             "library": "producer.so", "device": "/job:worker/task:0/device:CPU:0",
             "entry": "graphrt_task_descriptor_v1",
             "inputs": [sig("x", "f32", [N])],
             "outputs": [sig("p_last", "i64", [1])]},
            {"name": "consumer", "job": "worker", "index": 1,
             "library": "consumer.so", "device": "/job:worker/task:1/device:CPU:0",
             "entry": "graphrt_task_descriptor_v1",
             "outputs": [sig("y", "f32", [N]), sig("acc_out", "f32", [N]),
                         sig("loss", "f32", [])],
             "variables": [sig("acc", "f32", [N], "acc0.bin")]},
        ],
        "channels": [
            {"key": "edge", "src": "producer", "dst": "consumer",
             "payload": sig("edge", "f32", [N])},
            {"key": "back", "src": "consumer", "dst": "producer",
             "payload": sig("back", "i64", [1])},
        ],
    }
    write_bundle(os.path.join(d, "pair.gjob"), manifest, {
        "producer.so": os.path.join(libdir, "libgraphrt_test_producer.so"),
        "consumer.so": os.path.join(libdir, "libgraphrt_test_consumer.so"),
        "acc0.bin": os.path.join(d, "acc0.bin"),
    })


def check_pair(d, steps, out=None):
    x = np.load(os.path.join(d, "x.npy"))
    acc0 = np.load(os.path.join(d, "acc0.npy"))
    out = out or os.path.join(d, "out")
    y = np.load(os.path.join(out, "y.npy"))
    acc = np.load(os.path.join(out, "acc_out.npy"))
    p_last = np.load(os.path.join(out, "p_last.npy"))
    last = steps - 1
    np.testing.assert_array_equal(y, 2 * x + last + 1)
    np.testing.assert_array_equal(acc, acc0 + sum(2 * x + s for s in range(steps)))
    np.testing.assert_array_equal(p_last, np.array([10 * last], dtype=np.int64))
    loss = np.load(os.path.join(out, "loss.npy"))
    assert loss.shape == () and loss == 2 * x[0] + last + 1, loss
    print("pair: ok (%d steps)" % steps)


def check_metrics(path, steps, x_path):
    """check-metrics FILE STEPS X.npy: --metrics JSON of the pair job has one
    record per step, in order, each with both tasks' times and the loss."""
    m = json.load(open(path))
    x = np.load(x_path)
    assert m["steps"] == steps, m["steps"]
    per = m["per_step"]
    assert [r["step"] for r in per] == list(range(steps)), per
    for r in per:
        assert r["seconds"] > 0 and set(r["task_seconds"]) == {"producer", "consumer"}, r
        assert all(t > 0 for t in r["task_seconds"].values()), r
        assert r["loss"] == float(2 * x[0] + r["step"] + 1), r
    # A step's seconds run from the previous step's end to its own as graph-run
    # sees them; within a RunSteps range a task may start its next step before
    # its peer ends this one, so only the run's sum bounds each task's time.
    wall = sum(r["seconds"] for r in per)
    for task in ("producer", "consumer"):
        assert sum(r["task_seconds"][task] for r in per) <= wall, (task, per)
    print("metrics: ok (%d steps)" % steps)


# Bytes per element, from graphrt.h's graphrt_dtype_size (restated here so
# the runtime's table is checked, not reused).
DTYPE_BYTES = {"f64": 8, "i64": 8, "u64": 8, "f32": 4, "i32": 4, "u32": 4,
               "f16": 2, "bf16": 2, "i16": 2, "u16": 2, "u8": 1, "i8": 1,
               "bool": 1}


def check_traffic(path, bundle, steps):
    """check-traffic METRICS BUNDLE STEPS: --metrics' byte counters against
    the manifest: every channel moves exactly its payload's bytes in every
    step, once (one message), counted in per_step[].channel_bytes and summed
    in channels; every collective group moves the same bytes each step, and
    collective_groups holds their sum."""
    m = json.load(open(path))
    man = json.load(open(os.path.join(bundle, "manifest.json")))
    per = m["per_step"]
    assert len(per) == steps, len(per)
    channels = man.get("channels", [])
    assert set(m["channels"]) == {c["key"] for c in channels}, m["channels"]
    for c in channels:
        p = c["payload"]
        want = DTYPE_BYTES[p["dtype"]]
        for d in p.get("shape", []):
            want *= int(d)
        for r in per:
            assert r["channel_bytes"][c["key"]] == want, (c["key"], want, r)
        total = m["channels"][c["key"]]
        assert total == {"src": c["src"], "dst": c["dst"], "bytes": want * steps,
                         "messages": steps}, (c["key"], total)
        print("channel %s: %d bytes per step, %d in %d steps" %
              (c["key"], want, want * steps, steps))
    groups = man.get("collective_groups", [])
    assert set(m["collective_groups"]) == {g["name"] for g in groups}
    for g in groups:
        got = [r["collective_bytes"][g["name"]] for r in per]
        assert got[0] > 0 and got == [got[0]] * steps, (g["name"], got)
        assert m["collective_groups"][g["name"]]["bytes"] == sum(got), g
        print("group %s: %d bytes per step, %d in %d steps" %
              (g["name"], got[0], sum(got), steps))


def check_trace(path, steps, kinds):
    """check-trace FILE STEPS KIND,KIND...: a Chrome trace (JSON object
    form) with a named process per task, a "step N" compute span per task and
    step, and every other span of the given kinds inside its step's span."""
    t = json.load(open(path))
    events = t["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M"}
    spans = [e for e in events if e["ph"] == "X"]
    assert all(isinstance(e[k], int) for e in spans for k in ("ts", "dur", "pid", "tid"))
    steps_by = {}
    for e in spans:
        if e["cat"] == "compute":
            steps_by[(e["pid"], e["args"]["step"])] = e
    assert len(steps_by) == steps * len(names), (len(steps_by), names)
    seen = set()
    for e in spans:
        if e["cat"] == "compute":
            continue
        seen.add(e["cat"])
        s = steps_by[(e["pid"], e["args"]["step"])]
        assert s["ts"] <= e["ts"] and e["ts"] + e["dur"] <= s["ts"] + s["dur"], (e, s)
        assert e["args"]["bytes"] > 0 and e["args"]["peer"], e
        # Collectives over shared memory (graph-run's default on one host;
        # all-to-all stays on the data plane) say how much of their span was
        # waiting at the segment's barriers; sends and receives do not.
        if e["cat"].startswith("collective") and \
                not e["name"].startswith("all_to_all"):
            assert 0 <= e["args"]["wait_us"] <= e["dur"], e
        else:
            assert "wait_us" not in e["args"], e
    want = set(kinds.split(","))
    assert seen == want, (seen, want)
    print("trace: ok (%s; %s)" % (", ".join(sorted(names.values())),
                                  ", ".join(sorted(seen))))


FEED_BATCH, FEED_LOG = 4, 16    # FeedTask.cpp kBatch, kLogRows


def feed_bundle(d, libdir, examples=10):
    """feed-bundle DIR LIBDIR [EXAMPLES]: DIR/feed.gjob (FeedTask.cpp's
    reader and ps) and its data: example i is x = [i, 2i, 3i] and y = 100 + i,
    in DIR/x.csv (with a header), DIR/x.npy, DIR/y.npy and DIR/y.csv."""
    x = np.array([[i, 2 * i, 3 * i] for i in range(examples)], np.float32)
    y = np.arange(100, 100 + examples, dtype=np.int64)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "y.npy"), y)
    with open(os.path.join(d, "x.csv"), "w") as f:
        f.write("a,b,c\n")
        for row in x:
            f.write(",".join("%g" % v for v in row) + "\n")
    np.savetxt(os.path.join(d, "y.csv"), y.astype(np.float64))
    w0 = np.array([1, -2, 3], np.float32)
    w0.tofile(os.path.join(d, "w0.bin"))
    manifest = {
        "format_version": 1,
        "name": "feed",
        "tasks": [
            {"name": "reader", "job": "worker", "index": 0,
             "library": "reader.so",
             "inputs": [sig("x", "f32", [FEED_BATCH, 3]),
                        sig("y", "i64", [FEED_BATCH])],
             "outputs": [sig("log_out", "f32", [FEED_LOG, 2 * FEED_BATCH]),
                         sig("loss", "f32", [])],
             "variables": [sig("log", "f32", [FEED_LOG, 2 * FEED_BATCH]),
                           dict(sig("w_r1", "f32", [3], "w0.bin"),
                                replica_of="w")]},
            {"name": "ps", "job": "ps", "index": 0, "library": "ps.so",
             "outputs": [sig("w_out", "f32", [3])],
             "variables": [sig("w", "f32", [3], "w0.bin"),
                           dict(sig("w/momentum", "f32", [3]), slot_of="w")]},
        ],
        "channels": [{"key": "g", "src": "reader", "dst": "ps",
                      "payload": sig("g", "f32", [3])}],
    }
    write_bundle(os.path.join(d, "feed.gjob"), manifest, {
        "reader.so": os.path.join(libdir, "libgraphrt_test_feed_reader.so"),
        "ps.so": os.path.join(libdir, "libgraphrt_test_feed_ps.so"),
        "w0.bin": os.path.join(d, "w0.bin"),
    })


MASK64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9e3779b97f4a7c15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK64
    return state, z ^ (z >> 31)


def epoch_order(n, seed, epoch, shuffle):
    """The order docs/user/graph-run.md specifies for --data: Fisher-Yates
    driven by splitmix64 seeded with seed ^ (0x632be59bd9b4e019 * (epoch+1)),
    after one discarded draw; bounded draws by rejection."""
    order = list(range(n))
    if not shuffle:
        return order
    state = seed ^ ((0x632be59bd9b4e019 * (epoch + 1)) & MASK64)
    state, _ = splitmix64(state)
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = MASK64 - MASK64 % bound
        while True:
            state, r = splitmix64(state)
            if r < limit:
                break
        j = r % bound
        order[i], order[j] = order[j], order[i]
    return order


def feed_batches(n, batch, seed, shuffle, pad, steps, start=(0, 0)):
    """The example indices of each of `steps` batches from position start."""
    per_epoch = (n + batch - 1) // batch if pad else n // batch
    epoch, index = start
    out = []
    for _ in range(steps):
        if index + (1 if pad else batch) > n:
            epoch, index = epoch + 1, 0
        order = epoch_order(n, seed, epoch, shuffle)
        out.append([order[(index + k) % n] for k in range(batch)])
        index += batch
    assert per_epoch > 0
    return out


def check_feed(argv):
    """check-feed OUT EXAMPLES SEED SHUFFLE PARTIAL STEPS: log_out.npy of
    the feed job (which examples each step got, by x[:,0] and y) against the
    batches computed here; prints them."""
    out, n, seed, shuffle, partial, steps = argv
    n, seed, steps = int(n), int(seed), int(steps)
    log = np.load(os.path.join(out, "log_out.npy"))
    want = feed_batches(n, FEED_BATCH, seed, shuffle == "1", partial == "pad",
                        steps)
    for s, rows in enumerate(want):
        if s < steps - FEED_LOG:
            continue  # overwritten in the log
        got = log[s % FEED_LOG]
        assert list(got[:FEED_BATCH]) == rows, (s, list(got), rows)
        assert list(got[FEED_BATCH:]) == [100 + r for r in rows], (s, list(got))
        print("step %d: examples %s" % (s, " ".join(map(str, rows))))
    print("feed: ok (%d steps)" % steps)


ST_DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64,
             "I32": np.int32, "U8": np.uint8, "I8": np.int8, "BOOL": np.bool_}


def read_safetensors(path):
    """Parses a safetensors file by hand (8-byte little-endian header length,
    JSON header, data section): {name: array}, metadata, the data section,
    and the header's tensor entries."""
    import struct
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    assert (8 + n) % 8 == 0, "data section not 8-byte aligned"
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    meta = header.pop("__metadata__", {})
    tensors, covered = {}, 0
    for name, t in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        b, e = t["data_offsets"]
        assert b == covered, (name, b, covered)
        covered = e
        dt = np.dtype(ST_DTYPES[t["dtype"]]).newbyteorder("<")
        a = np.frombuffer(data[b:e], dtype=dt).reshape(t["shape"])
        tensors[name] = a
    assert covered == len(data), (covered, len(data))
    return tensors, meta, data, header


def feed_expected(d, n, seed, shuffle, steps):
    """w after `steps` steps of the feed job: w0 plus every batch's column
    sums; the momentum slot m = 0.5 m + g."""
    x = np.load(os.path.join(d, "x.npy"))
    w = np.fromfile(os.path.join(d, "w0.bin"), dtype=np.float32)
    m = np.zeros(3, np.float32)
    for rows in feed_batches(n, FEED_BATCH, seed, shuffle, False, steps):
        g = x[rows].sum(axis=0, dtype=np.float32)
        w = (w + g).astype(np.float32)
        m = (np.float32(0.5) * m + g).astype(np.float32)
    return w, m


def check_save(argv):
    """check-save FILE DIR SEED STEPS: the --save file of the feed job holds
    exactly the model's weights under their names (w once, though the reader
    keeps a replica's copy w_r1; no optimizer slot), with w as NumPy computes
    it."""
    path, d, seed, steps = argv[0], argv[1], int(argv[2]), int(argv[3])
    tensors, meta, _, _ = read_safetensors(path)
    print("save: %s" % ", ".join("%s %s%s" % (k, v.dtype, list(v.shape))
                                 for k, v in sorted(tensors.items())))
    assert sorted(tensors) == ["log", "w"], sorted(tensors)
    w, _ = feed_expected(d, 10, seed, True, steps)
    np.testing.assert_array_equal(tensors["w"], w)
    print("save: ok (w = %s, step %s)" % (tensors["w"].tolist(), meta["step"]))


def check_checkpoint(argv):
    """check-checkpoint FILE BUNDLE DIR SEED: a checkpoint of the feed job:
    every variable of every task as TASK/VARIABLE, the __metadata__ the
    contract lists, checked against the bundle's manifest and the data."""
    path, bundle, d, seed = argv[0], argv[1], argv[2], int(argv[3])
    tensors, meta, data, _ = read_safetensors(path)
    print("checkpoint: %s" % ", ".join(sorted(tensors)))
    print("metadata: %s" % ", ".join(sorted(meta)))
    man = open(os.path.join(bundle, "manifest.json"), "rb").read()
    assert meta["manifest_sha256"] == hashlib.sha256(man).hexdigest()
    assert meta["sha256"] == hashlib.sha256(data).hexdigest()
    assert int(meta["seed"]) == seed
    step = int(meta["step"])
    w, m = feed_expected(d, 10, seed, True, step)
    np.testing.assert_array_equal(tensors["ps/w"], w)
    np.testing.assert_array_equal(tensors["reader/w_r1"], w)
    np.testing.assert_array_equal(tensors["ps/w/momentum"], m)
    per_epoch = 10 // FEED_BATCH
    assert (int(meta["epoch"]), int(meta["position"])) == \
        (step // per_epoch, step % per_epoch * FEED_BATCH), meta
    print("checkpoint: ok (step %d, epoch %s, position %s)" %
          (step, meta["epoch"], meta["position"]))


def same_weights(argv):
    """same-weights A B: the two safetensors files hold the same tensors,
    byte for byte (sha256 of each)."""
    a, _, _, _ = read_safetensors(argv[0])
    b, _, _, _ = read_safetensors(argv[1])
    assert sorted(a) == sorted(b), (sorted(a), sorted(b))
    for k in sorted(a):
        ha = hashlib.sha256(a[k].tobytes()).hexdigest()
        hb = hashlib.sha256(b[k].tobytes()).hexdigest()
        assert ha == hb, "%s differs: %s vs %s" % (k, ha, hb)
    print("same weights: %d tensors, sha256 %s" % (
        len(a), hashlib.sha256(b"".join(a[k].tobytes() for k in sorted(a))).hexdigest()))


def dump_safetensors(path):
    """dump-safetensors FILE: each tensor (parsed by hand), in name order:
    NAME DTYPE SHAPE VALUES."""
    tensors, _, _, header = read_safetensors(path)
    for name in sorted(tensors):
        print(name, header[name]["dtype"], header[name]["shape"],
              tensors[name].ravel().tolist())


def restart_test(argv):
    """restart-test SEED KILLS STEPS DIR: runs the feed job of DIR (made by
    feed-bundle) for STEPS steps twice, with --deterministic and a checkpoint
    every 3 steps: once undisturbed, once with KILLS workers killed (SIGKILL,
    from inside the task at the start of a step) at steps and tasks drawn
    with SEED, under --max-restarts KILLS. Checks the second run restarted
    KILLS times and ends with every variable's sha256 equal to the first's."""
    import random
    seed, kills, steps, d = int(argv[0]), int(argv[1]), int(argv[2]), argv[3]
    rng = random.Random(seed)
    at = sorted(rng.sample(range(1, steps), kills))
    plan = [(rng.choice(["reader", "ps"]), s) for s in at]
    print("seed %d: %s" % (seed, ", ".join("kill %s at step %d" % p for p in plan)))
    common = ["graph-run", "--data", "x=%s/x.npy" % d, "--data",
              "y=%s/y.npy" % d, "--steps", str(steps), "--seed", "3",
              "--checkpoint-every", "3", "--deterministic",
              os.path.join(d, "feed.gjob")]
    runs = {}
    for name, env, extra in (
            ("whole", {}, []),
            ("killed", {"GRAPHRT_TEST_KILL": ",".join("%s:%d" % p for p in plan),
                        "GRAPHRT_TEST_KILL_ONCE": os.path.join(d, "once-%d" % seed)},
             ["--max-restarts", str(kills)])):
        ck = os.path.join(d, "%s-%d" % (name, seed))
        shutil.rmtree(ck, ignore_errors=True)
        os.makedirs(ck)
        if "GRAPHRT_TEST_KILL_ONCE" in env:
            shutil.rmtree(env["GRAPHRT_TEST_KILL_ONCE"], ignore_errors=True)
            os.makedirs(env["GRAPHRT_TEST_KILL_ONCE"])
        cmd = common[:1] + ["--checkpoint-dir", ck] + extra + common[1:]
        p = subprocess.run(cmd, env=dict(os.environ, **env), timeout=300,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode(errors="replace")
        if p.returncode != 0:
            sys.stdout.write(out)
            sys.exit("%s run: exit %d" % (name, p.returncode))
        restarts = [l for l in out.splitlines() if "graph-run: restart " in l]
        for l in restarts:
            print(l.split("graph-run: ", 1)[1].split(" (")[0])
        if name == "killed":
            # Every planned kill fired (each leaves its once-file), and each
            # failure was one restart. Two kills can fall in one failure: the
            # reader runs ahead of the ps within a range, so a reader killed
            # at step 5 may die before the ps killed at step 4 is noticed
            # (seed 20 of scripts/restart-soak.sh): one restart, both fired.
            fired = sorted(os.listdir(env["GRAPHRT_TEST_KILL_ONCE"]))
            assert len(fired) == kills, (fired, out)
            assert 1 <= len(restarts) <= kills, out
        runs[name] = os.path.join(ck, "ckpt-%d.safetensors" % steps)
    a, _, _, _ = read_safetensors(runs["whole"])
    b, _, _, _ = read_safetensors(runs["killed"])
    assert sorted(a) == sorted(b)
    digest = lambda t: hashlib.sha256(b"".join(t[k].tobytes() for k in sorted(t))).hexdigest()
    assert digest(a) == digest(b), (digest(a), digest(b))
    print("restarted %d times%s; final variables sha256 %s, equal to the "
          "uninterrupted run's" % (
              len(restarts), "" if len(restarts) == kills else
              " (%d kills, some in one failure)" % kills, digest(b)))


def coll_bundle(k, d, libdir):
    rng = np.random.default_rng(k)
    tasks, files = [], {}
    for r in range(k):
        x = rng.integers(-100, 100, size=k * BLOCK).astype(np.float32)
        np.save(os.path.join(d, "x%d.npy" % r), x)
        outs = [sig("c%d_%s" % (r, n), "f32", [BLOCK if n == "scatter" else k * BLOCK])
                for n in ("sum", "mean", "max", "min", "gather", "scatter",
                          "bcast", "a2a")]
        lib = "c%d.so" % r
        files[lib] = os.path.join(libdir, "libgraphrt_test_coll%d_r%d.so" % (k, r))
        tasks.append({"name": "c%d" % r, "index": r, "library": lib,
                      "inputs": [sig("x%d" % r, "f32", [k * BLOCK])],
                      "outputs": outs})
    manifest = {"format_version": 1, "name": "coll%d" % k, "tasks": tasks,
                "collective_groups": [{"name": "all",
                                       "tasks": ["c%d" % r for r in range(k)]}]}
    write_bundle(os.path.join(d, "coll.gjob"), manifest, files)


def check_coll(k, d):
    xs = [np.load(os.path.join(d, "x%d.npy" % r)) for r in range(k)]
    stack = np.stack(xs)
    out = lambda r, n: np.load(os.path.join(d, "out", "c%d_%s.npy" % (r, n)))
    root = 1 % k
    for r in range(k):
        np.testing.assert_array_equal(out(r, "sum"), stack.sum(0))
        np.testing.assert_allclose(out(r, "mean"), stack.mean(0), rtol=1e-6)
        np.testing.assert_array_equal(out(r, "max"), stack.max(0))
        np.testing.assert_array_equal(out(r, "min"), stack.min(0))
        np.testing.assert_array_equal(
            out(r, "gather"), np.concatenate([x[:BLOCK] for x in xs]))
        np.testing.assert_array_equal(
            out(r, "scatter"), stack.sum(0)[r * BLOCK:(r + 1) * BLOCK])
        np.testing.assert_array_equal(out(r, "bcast"), xs[root])
        np.testing.assert_array_equal(
            out(r, "a2a"),
            np.concatenate([xs[j][r * BLOCK:(r + 1) * BLOCK] for j in range(k)]))
    print("coll%d: ok" % k)


def run(argv):
    expect, max_seconds = None, None
    while argv and argv[0] != "--":
        if argv[0] == "--expect-exit":
            expect = int(argv[1])
        elif argv[0] == "--max-seconds":
            max_seconds = float(argv[1])
        argv = argv[2:]
    cmd = argv[1:]
    start = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=max_seconds + 30 if max_seconds else None)
    elapsed = time.monotonic() - start
    sys.stdout.write(p.stdout.decode(errors="replace"))
    print("exit=%d" % p.returncode)
    if expect is not None and p.returncode != expect:
        sys.exit("expected exit code %d, got %d" % (expect, p.returncode))
    if max_seconds is not None and elapsed > max_seconds:
        sys.exit("took %.1f s, more than %.1f s" % (elapsed, max_seconds))


def cluster(argv):
    """cluster N WORKER DIR [WORKER_ARG...] -- CMD...: starts N graph-workers
    (with a job token in $GRAPHRT_JOB_TOKEN, shared with CMD, unless one is
    set), writes DIR/cluster.json (TF_CONFIG style), runs CMD with it, stops
    the workers."""
    n, worker, d = int(argv[0]), argv[1], argv[2]
    sep = argv.index("--")
    worker_args, cmd = argv[3:sep], argv[sep + 1:]
    if "GRAPHRT_JOB_TOKEN" not in os.environ:
        os.environ["GRAPHRT_JOB_TOKEN"] = os.urandom(16).hex()
    procs, addrs = [], []
    try:
        for _ in range(n):
            p = subprocess.Popen([worker, "--listen", "127.0.0.1:0"] + worker_args,
                                 stdout=subprocess.PIPE)
            procs.append(p)
            line = p.stdout.readline().decode()
            addrs.append(line.split("listening on ")[1].strip())
        path = os.path.join(d, "cluster.json")
        with open(path, "w") as f:
            json.dump({"cluster": {"worker": addrs},
                       "task": {"type": "chief", "index": 0}}, f)
        r = subprocess.run([c.replace("@CLUSTER@", path) for c in cmd],
                           timeout=120)
        print("exit=%d" % r.returncode)
        sys.exit(r.returncode)
    finally:
        for p in procs:
            p.kill()
            p.wait()


def kill_task(argv):
    """kill-task TASK SECONDS|file:PATH -- CMD...: runs graph-run CMD, waits
    until it has run steps for SECONDS (or until PATH exists, e.g. a
    checkpoint of a given step: independent of the machine's speed), then
    `kill -9`s the worker of TASK (pid from graph-run's "started task" line)
    and reports how graph-run ended."""
    import re
    import signal
    task, when, cmd = argv[0], argv[1], argv[3:]
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    lines, pid = [], None
    for raw in p.stderr:
        line = raw.decode(errors="replace")
        lines.append(line)
        m = re.search(r"started task '%s' \(.*pid (\d+)\)" % re.escape(task), line)
        if m:
            pid = int(m.group(1))
            break
    if pid is None:
        p.kill()
        sys.exit("graph-run never started task '%s':\n%s" % (task, "".join(lines)))
    if when.startswith("file:"):
        # graph-run's stderr is not read meanwhile: a pipe's 64 KiB hold
        # far more than the lines it prints before the file appears.
        while not os.path.exists(when[5:]) and p.poll() is None:
            time.sleep(0.01)
    else:
        time.sleep(float(when))
    if p.poll() is not None:
        sys.exit("graph-run finished before the kill; give it more steps")
    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    try:
        _, rest = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit("graph-run did not stop within 30 s of the kill")
    sys.stdout.write("".join(lines) + rest.decode(errors="replace"))
    print("exit=%d after %.1f s" % (p.returncode, time.monotonic() - killed))


def certs(d):
    """certs DIR: a CA, a certificate for 127.0.0.1/localhost that serves
    and authenticates clients (node.pem/node.key), and one from another CA
    (rogue.pem/rogue.key), all generated here with the openssl CLI."""
    os.makedirs(d, exist_ok=True)

    def ossl(*args):
        subprocess.run(["openssl"] + list(args), check=True, cwd=d,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    ext = os.path.join(d, "node.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                "extendedKeyUsage=serverAuth,clientAuth\n"
                "basicConstraints=CA:FALSE\n")
    for ca, leaf in (("ca", "node"), ("rogueca", "rogue")):
        ossl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
             ca + ".key", "-out", ca + ".pem", "-days", "2", "-subj",
             "/CN=graphrt test " + ca)
        ossl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", leaf + ".key",
             "-out", leaf + ".csr", "-subj", "/CN=localhost")
        ossl("x509", "-req", "-in", leaf + ".csr", "-CA", ca + ".pem",
             "-CAkey", ca + ".key", "-CAcreateserial", "-out", leaf + ".pem",
             "-days", "2", "-extfile", ext)
    print("certs: ok")


def stop_task(argv):
    """stop-task TASK SECONDS -- CMD...: runs graph-run CMD, waits SECONDS
    after the task's worker started, SIGSTOPs it, and reports how graph-run
    ended and how long after the stop (the worker is SIGCONTed and left to
    graph-run to reap)."""
    import re
    import signal
    task, delay, cmd = argv[0], float(argv[1]), argv[3:]
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    lines, pid = [], None
    for raw in p.stderr:
        line = raw.decode(errors="replace")
        lines.append(line)
        m = re.search(r"started task '%s' \(.*pid (\d+)\)" % re.escape(task), line)
        if m:
            pid = int(m.group(1))
            break
    if pid is None:
        p.kill()
        sys.exit("graph-run never started task '%s':\n%s" % (task, "".join(lines)))
    time.sleep(delay)
    if p.poll() is not None:
        sys.exit("graph-run finished before the stop; give it more steps")
    os.kill(pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        _, rest = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        os.kill(pid, signal.SIGKILL)
        sys.exit("graph-run did not stop within 60 s of the SIGSTOP")
    sys.stdout.write("".join(lines) + rest.decode(errors="replace"))
    print("exit=%d after %.1f s" % (p.returncode, time.monotonic() - stopped))


RANK_ENV = {"ompi": ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
            "pmi": ("PMI_RANK", "PMI_SIZE"),
            "slurm": ("SLURM_PROCID", "SLURM_NTASKS")}


def ranks(argv):
    """ranks N STYLE -- CMD...: runs N copies of CMD as mpirun (STYLE ompi or
    pmi) or srun (slurm) would, on loopback, with a shared job token; prints
    each rank's exit code ("rank R exit=E") and fails unless all are 0."""
    import socket
    n, style, cmd = int(argv[0]), argv[1], argv[3:]
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    rank_var, size_var = RANK_ENV[style]
    token = os.urandom(16).hex()
    procs = []
    for r in range(n):
        env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                   GRAPHRT_LISTEN="127.0.0.1:0",
                   GRAPHRT_ADVERTISE_HOST="127.0.0.1",
                   GRAPHRT_JOB_TOKEN=token)
        env[rank_var], env[size_var] = str(r), str(n)
        procs.append(subprocess.Popen(cmd, env=env))
    codes = []
    for r, p in enumerate(procs):
        try:
            codes.append(p.wait(timeout=60))
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            sys.exit("rank %d did not finish within 60 s" % r)
    for r, c in enumerate(codes):
        print("rank %d exit=%d" % (r, c))
    if any(codes):
        sys.exit(1)


def check_k8s(argv):
    """check-k8s DIR NAME TASKS BUNDLE PVC OUTPUT_PVC IMAGE ARG...: the
    manifests of --emit-k8s, field by field: an Indexed Job of TASKS pods
    running `graph-run ARG... [--output-dir /outputs/NAME] /bundle/BUNDLE` in
    IMAGE with the bundle's volume and the outputs volume, and the headless
    Service that gives the pods their DNS names."""
    d, name, tasks, bundle, pvc, output_pvc, image = argv[:7]
    args = argv[7:]
    if not any(a == "--output-dir" or a.startswith("--output-dir=")
               for a in args):
        args = args + ["--output-dir", "/outputs/" + name]
    if image == "DEFAULT":  # spelt out here: lit would expand the tool name
        image = "graphc/" + "graph-run:latest"
    tasks = int(tasks)
    job = json.load(open(os.path.join(d, "job.json")))
    svc = json.load(open(os.path.join(d, "service.json")))
    labels = {"app.kubernetes.io/name": "graph-run", "graphc.dev/job": name}

    assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", job
    assert job["metadata"] == {"name": name, "labels": labels}, job["metadata"]
    spec = job["spec"]
    assert set(spec) == {"completionMode", "completions", "parallelism",
                         "backoffLimit", "template"}, set(spec)
    assert spec["completionMode"] == "Indexed"
    assert spec["completions"] == tasks and spec["parallelism"] == tasks
    assert spec["backoffLimit"] == 0
    tmpl = spec["template"]
    assert tmpl["metadata"] == {"labels": labels}
    pod = tmpl["spec"]
    assert set(pod) == {"subdomain", "restartPolicy", "containers", "volumes"}
    assert pod["subdomain"] == name and pod["restartPolicy"] == "Never"
    assert pod["volumes"] == [{"name": "bundle", "persistentVolumeClaim":
                               {"claimName": pvc, "readOnly": True}},
                              {"name": "outputs", "persistentVolumeClaim":
                               {"claimName": output_pvc}}], pod["volumes"]
    (c,) = pod["containers"]
    assert c["name"] == "graph-run" and c["image"] == image
    assert c["command"] == ["graph-run"]
    assert c["args"] == args + ["/bundle/" + bundle], c["args"]
    env = {e["name"]: e for e in c["env"]}
    assert env["GRAPHRT_WORLD_SIZE"]["value"] == str(tasks)
    assert env["MASTER_ADDR"]["value"] == "%s-0.%s" % (name, name)
    assert env["MASTER_PORT"]["value"] == "29400"
    assert env["GRAPHRT_LISTEN"]["value"] == "0.0.0.0:29500"
    assert env["GRAPHRT_SUBDOMAIN"]["value"] == name
    assert env["GRAPHRT_JOB_TOKEN"]["valueFrom"] == {
        "secretKeyRef": {"name": name + "-token", "key": "token"}}
    assert len(env) == 6, sorted(env)
    assert c["ports"] == [{"name": "coordinator", "containerPort": 29400},
                          {"name": "worker", "containerPort": 29500}], c["ports"]
    assert c["volumeMounts"] == [{"name": "bundle", "mountPath": "/bundle",
                                  "readOnly": True},
                                 {"name": "outputs", "mountPath": "/outputs"}]

    assert svc["apiVersion"] == "v1" and svc["kind"] == "Service"
    assert svc["metadata"] == {"name": name, "labels": labels}
    assert svc["spec"] == {
        "clusterIP": "None", "publishNotReadyAddresses": True,
        "selector": {"graphc.dev/job": name},
        "ports": [{"name": "coordinator", "port": 29400},
                  {"name": "worker", "port": 29500}]}, svc["spec"]
    print("k8s: ok (%s, %d pods)" % (name, tasks))


def dockerfile_packages(text):
    """The packages of the Dockerfile's `apt-get install` (continuation
    lines joined), and its COPY lines."""
    text = text.replace("\\\n", " ")
    packages, copies = set(), []
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ["COPY"]:
            copies.append(words[1:])
        if "install" in words:
            for w in words[words.index("install") + 1:]:
                if w == "&&":
                    break
                if not w.startswith("-"):
                    packages.add(w)
    return packages, copies


def owning_package(path):
    """The Debian package that installed `path` (dpkg -S), trying the
    merged-/usr spellings."""
    real = os.path.realpath(path)
    candidates = [path, real]
    for p in (path, real):
        if p.startswith("/lib"):
            candidates.append("/usr" + p)
        elif p.startswith("/usr/lib"):
            candidates.append(p[len("/usr"):])
    for p in candidates:
        r = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True)
        if r.returncode == 0:
            return r.stdout.split(":")[0].strip()
    return None


def check_image(argv):
    """check-image CONTEXT DOCKERFILE BUILD_BIN TASK_LIB: deploy/k8s/stage.sh
    staged the two binaries of BUILD_BIN and libomp.so.5 next to the
    Dockerfile, the Dockerfile copies them in, and every shared library that
    `ldd` names for graph-run, graph-worker and a graphc task library
    (TASK_LIB) is either glibc's (the base image has it), staged (libomp) or
    from a package the Dockerfile installs."""
    context, dockerfile, bindir, tasklib = argv
    text = open(dockerfile).read()
    assert open(os.path.join(context, "Dockerfile")).read() == text
    assert text.splitlines()[[l.split()[:1] for l in text.splitlines()].index(
        ["FROM"])].split()[1].startswith("debian:12"), "not debian:12"
    packages, copies = dockerfile_packages(text)
    assert ["bin/graph-run", "bin/graph-worker", "/usr/local/bin/"] in copies, copies
    assert ["lib/libomp.so.5", "/usr/local/lib/"] in copies, copies
    for tool in ("graph-run", "graph-worker"):
        staged = open(os.path.join(context, "bin", tool), "rb").read()
        assert staged == open(os.path.join(bindir, tool), "rb").read(), tool
    staged_libs = set(os.listdir(os.path.join(context, "lib")))
    assert staged_libs == {"libomp.so.5"}, staged_libs
    glibc = {"libc6"}
    needed = {}
    for binary in (os.path.join(bindir, "graph-run"),
                   os.path.join(bindir, "graph-worker"), tasklib):
        out = subprocess.run(["ldd", binary], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            words = line.split()
            if len(words) < 3 or words[1] != "=>":
                continue  # the vDSO and the loader itself
            lib, path = words[0], words[2]
            assert path != "not", "%s: %s is not found" % (binary, lib)
            needed[lib] = path
    missing = []
    for lib, path in sorted(needed.items()):
        if lib in staged_libs:
            print("%s: staged" % lib)
            continue
        pkg = owning_package(path)
        if pkg in glibc:
            continue
        if pkg not in packages:
            missing.append("%s (%s, package %s)" % (lib, path, pkg))
        else:
            print("%s: %s" % (lib, pkg))
    assert not missing, "the Dockerfile does not install: " + ", ".join(missing)
    unused = packages - {owning_package(p) for p in needed.values()}
    assert not unused, "the Dockerfile installs packages nothing links: %s" % unused
    print("image: ok (%d packages, libomp staged)" % len(packages))


LIBC_SONAMES = ("linux-vdso.so", "ld-linux", "libc.so", "libm.so", "libdl.so",
                "libpthread.so", "librt.so", "libutil.so", "libresolv.so")


def check_pack(d):
    """check-pack DIR: every library the packed binaries resolve (with no
    LD_LIBRARY_PATH) lies in DIR, except the C library's; DIR holds no
    symbolic link and the binaries carry the $ORIGIN/lib RPATH."""
    d = os.path.realpath(d)
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    seen = 0
    for tool in ("graph-run", "graph-worker"):
        exe = os.path.join(d, tool)
        dyn = subprocess.run(["readelf", "-d", exe], capture_output=True,
                             text=True, check=True).stdout
        if "(RPATH)" not in dyn or "$ORIGIN/lib" not in dyn:
            sys.exit("%s has no $ORIGIN/lib RPATH" % tool)
        out = subprocess.run(["ldd", exe], capture_output=True, text=True,
                             env=env, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if "=>" not in parts:
                continue
            name, path = parts[0], parts[2]
            if path == "not":
                sys.exit("%s: %s not found" % (tool, name))
            if os.path.realpath(path).startswith(d + "/"):
                seen += 1
            elif not name.startswith(LIBC_SONAMES):
                sys.exit("%s: %s resolves outside the pack: %s" % (tool, name, path))
    for root, _, files in os.walk(d):
        for f in files:
            if os.path.islink(os.path.join(root, f)):
                sys.exit("symbolic link in the pack: " + f)
    if seen == 0:
        sys.exit("no library resolved inside the pack")
    print("pack ok: %d libraries from the pack" % seen)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "pair-bundle":
        pair_bundle(args[0], args[1])
    elif cmd == "feed-bundle":
        feed_bundle(args[0], args[1], *(int(a) for a in args[2:]))
    elif cmd == "check-feed":
        check_feed(args)
    elif cmd == "check-save":
        check_save(args)
    elif cmd == "check-checkpoint":
        check_checkpoint(args)
    elif cmd == "restart-test":
        restart_test(args)
    elif cmd == "dump-safetensors":
        dump_safetensors(args[0])
    elif cmd == "same-weights":
        same_weights(args)
    elif cmd == "coll-bundle":
        coll_bundle(int(args[0]), args[1], args[2])
    elif cmd == "check-pair":
        check_pair(args[0], int(args[1]), args[2] if len(args) > 2 else None)
    elif cmd == "check-metrics":
        check_metrics(args[0], int(args[1]), args[2])
    elif cmd == "check-traffic":
        check_traffic(args[0], args[1], int(args[2]))
    elif cmd == "check-image":
        check_image(args)
    elif cmd == "check-trace":
        check_trace(args[0], int(args[1]), args[2])
    elif cmd == "check-coll":
        check_coll(int(args[0]), args[1])
    elif cmd == "cluster":
        cluster(args)
    elif cmd == "kill-task":
        kill_task(args)
    elif cmd == "check-k8s":
        check_k8s(args)
    elif cmd == "ranks":
        ranks(args)
    elif cmd == "stop-task":
        stop_task(args)
    elif cmd == "certs":
        certs(args[0])
    elif cmd == "run":
        run(args)
    elif cmd == "check-pack":
        check_pack(args[0])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
