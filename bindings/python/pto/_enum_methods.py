"""The hand-written members of the generated enums (pto/_enums.py): each class
here is the mixin of the enum it is named after."""

import numpy as np

from . import _pto


class DTypeMethods:
    """DType's members beyond its values."""

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return int(_pto.dtype_size(self))

    @property
    def numpy_dtype(self) -> np.dtype:
        """The numpy dtype of Tile.numpy() for this type (for BFLOAT16:
        ml_dtypes.bfloat16 if installed, else uint16 holding the raw bits; for
        FLOAT8_E4M3, FLOAT8_E5M2, FLOAT8_E8M0 ml_dtypes' float8 type if
        installed, else uint8; for the other low-precision types uint8)."""
        from . import _NUMPY_TYPES  # the package's table, keyed by DType

        return np.dtype(_NUMPY_TYPES[self])
