#!/usr/bin/env python3
# a uniform in [-1, 1); golden c: a's rows 0-7, rows 8-15 zero (one sub-block's rows).
import numpy as np
from validation_runtime import buffers, save

counts, outputs = buffers()
a = np.random.default_rng(3).uniform(-1.0, 1.0, counts["v1"]).astype(np.float32)
save("", {"v1": a, "v2": np.zeros(counts["v2"])})
golden = a.copy()
golden[counts["v2"] // 2:] = 0.0
save("golden_", {"v2": golden})
