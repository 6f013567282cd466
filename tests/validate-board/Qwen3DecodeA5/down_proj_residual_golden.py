#!/usr/bin/env python3
# As out_proj_residual_golden.py, and element 0 of the golden wrong.
import numpy as np
from validation_runtime import buffers, save

counts, outputs = buffers()
a = np.random.default_rng(3).uniform(-1.0, 1.0, counts["v1"]).astype(np.float32)
save("", {"v1": a, "v2": np.zeros(counts["v2"])})
golden = a.copy()
golden[counts["v2"] // 2:] = 0.0
golden[0] += 1.0
save("golden_", {"v2": golden})
