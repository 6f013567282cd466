#!/usr/bin/env python3
# A Python builder sample: it would print its .pto through PTOAS's Python
# bindings, which pto-validate does not have.
from mlir.ir import Context  # noqa: F401  (PTOAS's Python package)
