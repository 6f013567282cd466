"""Helper of the board-rule cases' golden scripts: the buffers pto-validate
describes in main.cpp (element counts, float32) and the outputs it lists,
with arrays written as NAME.bin (inputs) and golden_NAME.bin."""
import re
from pathlib import Path

import numpy as np


def buffers():
    """{name: element count} in parameter order, and the outputs."""
    text = Path("main.cpp").read_text()
    counts = {name: int(n) for name, n in re.findall(r"size_t elemCount_(\w+) = (\d+);", text)}
    return counts, Path("outputs.txt").read_text().split()


def save(prefix, arrays):
    for name, data in arrays.items():
        np.asarray(data, dtype=np.float32).tofile(f"{prefix}{name}.bin")
