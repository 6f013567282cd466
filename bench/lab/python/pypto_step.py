#!/usr/bin/env python3
"""A pypto-lib model's step on libpto against its torch golden, in one process.

    python bench/lab/python/pypto_step.py MODEL.py WORK_DIR [--workers 1,2,1,2] [--repeat N] [--order all|pto2]

WORK_DIR is the model's compile (`python -m pto.pypto MODEL.py -o OUT --compile-only`
writes OUT/<Program>_<time>/). Each round makes the model's inputs (its
build_tensor_specs), runs its golden_* on torch (PYPTO_GOLDEN_NUM_THREADS threads, as
pto.pypto runs it) and then the orchestration on libpto's host runtime with that round's
workers, --repeat times on the same inputs; it prints the verdict (the model's own
tolerances, pypto-lib's comparison), and the wall and CPU seconds of the golden and of
each run. A round of 1 worker runs pinned to one CPU with PTO_NUM_THREADS=1 (one core);
other rounds on every CPU. CPU seconds are the process's (every thread), taken around
the golden function alone (not the copies of the inputs it gets) and around each run. Needs PyPTO, torch and pypto-lib (on PYTHONPATH),
libpto's Python package and libpto-runtime.
"""

import argparse
import importlib.util
import inspect
import os
import sys
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("work")
    p.add_argument("--workers", default="1,2", help="the rounds' worker counts (default 1,2)")
    p.add_argument("--repeat", type=int, default=1, help="runs of libpto per round, on the same inputs")
    p.add_argument("--order", default="all", choices=["all", "pto2"],
                   help="the tasks' orders (pto_runtime_set_order): every order the tensors give, or PTO2's")
    p.add_argument("--rtol", type=float, default=3e-3)
    p.add_argument("--atol", type=float, default=3e-3)
    a = p.parse_args()
    model = os.path.abspath(a.model)
    sys.path.insert(0, os.path.dirname(model))
    spec = importlib.util.spec_from_file_location("model", model)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    golden_fn = next(f for n, f in inspect.getmembers(m, inspect.isfunction)
                     if n.startswith("golden_") and f.__module__ == "model")
    from pto.pypto import _harness, _runtime
    golden = _harness.require("golden")
    cpus = sorted(os.sched_getaffinity(0))
    for w in (int(x) for x in a.workers.split(",")):
        if w == 1:
            os.sched_setaffinity(0, {cpus[-1]})
            os.environ["PTO_NUM_THREADS"] = "1"
        else:
            os.sched_setaffinity(0, set(cpus))
            os.environ.pop("PTO_NUM_THREADS", None)
        specs = m.build_tensor_specs()
        tensors, scalars = _harness._golden_inputs(specs, None)
        load = os.getloadavg()[0]
        golden_times = []

        def timed_golden(t, fn=golden_fn):
            c0, t0 = time.process_time(), time.perf_counter()
            fn(t)
            golden_times.append((time.process_time() - c0, time.perf_counter() - t0))

        # The golden alone is timed, not the copies of the inputs it is given.
        expected = _harness._compute_golden(specs, tensors, scalars, timed_golden, None)
        g_cpu, g_wall = golden_times[0]
        targs = [tensors[s.name] for s in specs if _harness._is_tensor_spec(s)]
        sargs = [_harness._scalar_arg(scalars[s.name]) for s in specs if not _harness._is_tensor_spec(s)]
        runs = []
        with _runtime.Session(a.work, w, order=a.order) as session:
            for _ in range(a.repeat):
                c0 = time.process_time()
                wall = session.run(targs, sargs)
                runs.append((time.process_time() - c0, wall))
        result = _harness.RunResult(passed=False)
        # The first run's outputs are judged: a decode step updates its caches in place,
        # so later runs' inputs are not the golden's.
        if a.repeat == 1:
            _harness.judge(result, golden, specs, tensors, scalars, expected, a.rtol, a.atol, None)
        verdict = ("PASS" if result.passed else "FAIL") if a.repeat == 1 else "not judged (--repeat)"
        print(f"workers {w}, order {a.order}: {verdict}; torch golden ({os.environ.get('PYPTO_GOLDEN_NUM_THREADS', 'default')} "
              f"threads) wall {g_wall:.3f} s cpu {g_cpu:.3f} s; libpto wall "
              + " ".join(f"{x:.3f}" for _, x in runs) + " s cpu " + " ".join(f"{c:.3f}" for c, _ in runs)
              + f" s; best run / golden: wall {min(x for _, x in runs) / g_wall:.3f}, cpu "
              f"{min(c for c, _ in runs) / g_cpu:.3f}; load {load:.1f}-{os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
