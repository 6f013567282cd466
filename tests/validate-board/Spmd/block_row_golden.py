#!/usr/bin/env python3
# src uniform in [-1, 1); golden dst: src's row 1 (block index 1 x block count 1).
import numpy as np
from validation_runtime import buffers, save

counts, outputs = buffers()
src = np.random.default_rng(5).uniform(-1.0, 1.0, counts["v1"]).astype(np.float32)
save("", {"v1": src, "v2": np.zeros(counts["v2"])})
save("golden_", {"v2": src[32:64]})
