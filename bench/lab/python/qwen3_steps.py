#!/usr/bin/env python3
"""The Qwen3-32B decode step of examples/models/qwen3-decode, run N times in one session.

    taskset -c 1 python bench/lab/python/qwen3_steps.py EXPORT_DIR [N] [LABEL]

EXPORT_DIR is PyPTO's export of decode.py (docs/qwen3-decode.md). The example's inputs
(seed 19, contexts drawn from 1..4096) are made once; each step runs on fresh copies of
the caches and a fresh out, one worker, an spmd task's blocks on PTO_NUM_THREADS threads (1
unless set). Prints one line: each step's user and system CPU
seconds and wall seconds, whether every step gave the first one's out bit for bit, the
first out's SHA-1 (so that runs on two libraries can be compared) and the load average.
No check against the reference: the example itself does that. Needs numpy, libpto's
Python package and libpto-runtime.
"""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "examples", "models", "qwen3-decode"))


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    export = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    label = sys.argv[3] if len(sys.argv) > 3 else ""
    os.environ.setdefault("PTO_NUM_THREADS", "1")
    import numpy as np
    import qwen3_decode as q
    from pto.pypto import Session

    x = q.make_inputs(19, q.MAX_SEQ, False, peaked=False)
    times, outs = [], []
    with Session(export, workers=1) as session:
        for _ in range(steps):
            y = dict(x, k_cache=x["k_cache"].copy(), v_cache=x["v_cache"].copy())
            out = np.zeros((q.BATCH, q.HIDDEN), np.uint16)
            t0 = os.times()
            wall = session.run(q.orchestration_args(y, out), [])
            t1 = os.times()
            times.append((t1.user - t0.user, t1.system - t0.system, wall))
            outs.append(out)
    same = all(np.array_equal(outs[0], o) for o in outs)
    print(label, "user", " ".join(f"{u:.2f}" for u, _, _ in times),
          "| sys", " ".join(f"{s:.2f}" for _, s, _ in times),
          "| wall", " ".join(f"{w:.2f}" for _, _, w in times),
          "| same bits", same, "out sha", hashlib.sha1(outs[0].tobytes()).hexdigest()[:12],
          "| load %.1f" % os.getloadavg()[0], flush=True)


if __name__ == "__main__":
    main()
