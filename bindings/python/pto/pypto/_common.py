"""What the front end's modules share: its error, the platforms, the imports it needs."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Dict, NamedTuple


class PyptoError(RuntimeError):
    """A model that cannot run on libpto, said in one line: a missing package
    (PyPTO, torch, pypto-lib's golden), a model without a golden, a kernel
    libpto refuses (its file:line:col), an orchestration name the host
    runtime lacks (the name), a runtime failure (the runtime's sentence)."""


class Platform(NamedTuple):
    """One of PyPTO's platforms as libpto runs it: the name PyPTO and
    pypto-lib know, PyPTO's codegen backend (a name of
    pypto.backend.BackendType) and the libpto profile whose rules the
    kernels are verified and run under."""

    name: str
    backend: str
    profile: str


# a5 and a5sim generate for Ascend950, a2a3 and a2a3sim for Ascend910B (as
# PyPTO's ir.compile and pypto-lib's golden.runner map them); libpto runs each
# under the profile of the same target.
PLATFORMS: Dict[str, Platform] = {
    "a5": Platform("a5", "Ascend950", "A5"),
    "a5sim": Platform("a5sim", "Ascend950", "A5"),
    "a2a3": Platform("a2a3", "Ascend910B", "A2A3"),
    "a2a3sim": Platform("a2a3sim", "Ascend910B", "A2A3"),
}


def platform(name: str) -> Platform:
    """The Platform called name, else PyptoError listing the names."""
    try:
        return PLATFORMS[name]
    except KeyError:
        raise PyptoError(f"unknown platform {name!r}; expected one of {', '.join(PLATFORMS)}") from None


_INSTALL_HINT = {
    "pypto": "PyPTO (hw-native-sys/pypto, built from source: docs/pypto.md)",
    "torch": "torch (pip install torch)",
    "golden": "pypto-lib's golden package (put the pypto-lib checkout on PYTHONPATH)",
}


def require(module: str) -> ModuleType:
    """import module, or PyptoError naming what to install."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        hint = _INSTALL_HINT.get(top, top)
        raise PyptoError(f"{hint} is needed to run PyPTO programs on libpto: import {module} failed ({e})") from e
