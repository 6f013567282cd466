#!/usr/bin/env python3
# c = a + b (never reached: libpto refuses the kernel)
from validation_runtime import binary_golden

binary_golden(lambda a, b: a + b)
