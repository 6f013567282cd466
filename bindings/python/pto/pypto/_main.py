"""The command line of pto.pypto."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional

from ._common import PyptoError
from ._model import run_model


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m pto.pypto",
        description="Run a pypto-lib model file on libpto and judge it by its own golden.")
    p.add_argument("model", help="the model's .py file (its __main__ calls golden.run or golden.run_jit)")
    p.add_argument("-p", "--platform", default="a5", choices=["a5", "a2a3"],
                   help="a5: Ascend950 kernels under libpto's A5 profile; a2a3: Ascend910B under A2A3 (default a5)")
    p.add_argument("-w", "--workers", type=int, default=None,
                   help="host runtime worker threads (default: every CPU)")
    p.add_argument("-o", "--output-dir", default=None,
                   help="where PyPTO writes the compile (default: its build_output/ under the current directory)")
    p.add_argument("--compile-only", action="store_true",
                   help="stop after PyPTO's compile and libpto's verification of every kernel")
    p.add_argument("--board", action="store_true",
                   help="libpto's board mode: a rule pto-isa's NPU implementation leaves unchecked runs as the "
                        "NPU runs it, each occurrence a warning (counted by rule in the verdict) instead of a refusal")
    p.add_argument("--order", default="all", choices=["all", "pto2"],
                   help="all: every order the tensors give, the same bytes on any number of workers (default); "
                        "pto2: only the orders PTO2's runtime keeps (reads after writes), as on an NPU")
    p.add_argument("--profile", action="store_true",
                   help="time each kernel of the run (the runtime's tap) and list them, the slowest first")
    p.add_argument("--compare-workers", default=None, metavar="N[,N...]",
                   help="after the run, run the orchestration again on each of these worker counts, on the same "
                        "inputs; each run is judged and timed (the verdict needs every run to pass)")
    p.add_argument("--json", default=None, metavar="FILE",
                   help="also write the results as JSON (one object per harness call) to FILE")
    p.epilog = "Arguments after -- go to the model's own argument parser, after -p PLATFORM."
    return p


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    model_args = argv[argv.index("--") + 1:] if "--" in argv else []
    args = _parser().parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.workers is not None and args.workers < 1:
        print("pto.pypto: error: --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        compare = [int(w) for w in args.compare_workers.split(",")] if args.compare_workers else []
    except ValueError:
        compare = [0]
    if any(w < 1 for w in compare):
        print(f"pto.pypto: error: --compare-workers takes positive worker counts separated by commas, "
              f"not {args.compare_workers!r}", file=sys.stderr)
        return 2
    if args.output_dir:
        os.environ["PYPTO_PROG_BUILD_DIR"] = args.output_dir
    try:
        results = run_model(args.model, args.platform, args.workers,
                            argv=["-p", args.platform] + model_args, compile_only=args.compile_only,
                            board=args.board, profile=args.profile, order=args.order, compare_workers=compare)
    except PyptoError as e:
        print(f"pto.pypto: {args.model}: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([dict(model=args.model, **r.as_dict()) for r in results], f, indent=1)
    passed = all(r.passed for r in results)
    board = "; ".join(r.board_text() for r in results if r.board)
    print(f"pto.pypto: {args.model}: {'PASS' if passed else 'FAIL'} ({len(results)} run"
          f"{'s' if len(results) != 1 else ''}{'; ' + board if board else ''})", flush=True)
    return 0 if passed else 1
