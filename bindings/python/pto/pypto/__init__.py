"""pto.pypto: PyPTO programs (hw-native-sys/pypto) run on libpto, judged by their own golden.

PyPTO compiles a program into PTO-assembly kernels and an orchestration C++
file against simpler's PTO2 runtime API; this module compiles it without ptoas
for the platform's backend (a5, a5sim: Ascend950; a2a3, a2a3sim: Ascend910B),
verifies every kernel with libpto under that target's profile, runs the
orchestration on libpto's host runtime (libpto-runtime) and compares the
outputs with the program's torch golden through pypto-lib's own comparison
(golden.validate_golden) at the tolerances the caller gives.

From the command line, a pypto-lib model file, unmodified::

    python -m pto.pypto models/qwen3_32b/decode.py [--platform a5|a2a3] [--workers N]

prints PASS or FAIL, each output's largest errors and the stages' times
(compile, prepare, run, golden), and exits 0 on PASS, 1 on FAIL, 2 when the
model cannot run (one line saying why). From a script, ``pto.pypto.run`` and
``pto.pypto.run_jit`` take golden.run's and golden.run_jit's arguments, so a
model switches its platform to libpto by calling them instead::

    from pto.pypto import run          # instead of: from golden import run

Needs PyPTO, torch and pypto-lib's golden package (its checkout on PYTHONPATH,
found by itself above a model file), none of which libpto itself needs.
docs/pypto.md lists the models run this way and their results.
"""

from ._common import PLATFORMS, Platform, PyptoError
from ._compile import Compiled, Kernel
from ._harness import Rerun, RunResult, largest_errors, run, run_jit
from ._model import run_model
from ._runtime import Session, TapTask, TapView, TensorView

__all__ = ["PLATFORMS", "Compiled", "Kernel", "Platform", "PyptoError", "Rerun", "RunResult", "largest_errors", "main",
           "run", "run_jit", "run_model", "Session", "TapTask", "TapView", "TensorView"]


def main(argv: "list[str] | None" = None) -> int:
    """The command line: runs one model file; 0 PASS, 1 FAIL, 2 an error."""
    from ._main import main as _main

    return _main(argv)
