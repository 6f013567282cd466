#!/usr/bin/env python3
# c = a + b
from validation_runtime import binary_golden

binary_golden(lambda a, b: a + b)
