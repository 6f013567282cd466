#!/usr/bin/env python3
# c = max(a, b)
import numpy as np
from validation_runtime import binary_golden

binary_golden(lambda a, b: np.maximum(a, b))
