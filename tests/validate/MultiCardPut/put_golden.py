#!/usr/bin/env python3
# dst = src, sig = 1
import numpy as np

from validation_runtime import case, write

names, layout, outputs, _ = case()
src = np.random.default_rng(3).uniform(-4.0, 4.0, layout[names[0]][0]).astype(np.float32)
write("", {names[0]: src, names[1]: np.zeros(layout[names[1]][0]), names[2]: np.zeros(1)}, layout)
write("golden_", {names[1]: src, names[2]: np.ones(1)}, layout)
