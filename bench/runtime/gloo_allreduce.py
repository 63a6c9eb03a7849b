#!/usr/bin/env python3
"""gloo_allreduce.py K MIB REPS: torch.distributed gloo all-reduce of MIB MiB
of f32 across K processes on loopback; prints "gloo K MIB GIB_PER_S" where the
time of one all-reduce is the slowest rank's (median over REPS after one
warm-up). Needs Debian's python3-torch (/usr/bin/python3)."""
import os
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, k, mib, reps, port, q):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=k)
    x = torch.ones(mib * (1 << 18), dtype=torch.float32)
    times = []
    for i in range(reps + 1):
        dist.barrier()
        t0 = time.perf_counter()
        dist.all_reduce(x)
        dt = torch.tensor([time.perf_counter() - t0], dtype=torch.float64)
        dist.all_reduce(dt, op=dist.ReduceOp.MAX)
        if i:
            times.append(dt.item())
    if rank == 0:
        times.sort()
        q.put(mib / 1024 / times[len(times) // 2])
    dist.destroy_process_group()


def main():
    k, mib, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, k, mib, reps, port, q))
             for r in range(k)]
    for p in procs:
        p.start()
    gibs = q.get(timeout=600)
    for p in procs:
        p.join()
    print("gloo %d %d %.3f" % (k, mib, gibs))


if __name__ == "__main__":
    main()
