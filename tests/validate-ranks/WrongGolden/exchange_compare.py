#!/usr/bin/env python3
from validation_runtime import compare

compare(atol=0)
