#!/usr/bin/env python3
# A golden script that writes the expected output and forgets the inputs.
import numpy as np
from validation_runtime import case, write

names, layout, outputs, _ = case()
write("golden_", {outputs[0]: np.ones(layout[outputs[0]][0])}, layout)
