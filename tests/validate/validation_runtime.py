"""The cases' shared helper: the case description pto-validate writes
(main.cpp's declarations, outputs.txt) read back, buffers written as NAME.bin
and expected outputs as golden_NAME.bin, outputs compared. The samples'
scripts find it in their scratch directory, where pto-validate copies it."""
import re
import sys
from pathlib import Path

import numpy as np

HOST = {"float": np.float32, "int32_t": np.int32, "int64_t": np.int64, "bfloat16_t": np.uint16,
        "aclFloat16": np.float16}


def case():
    """(names in order, {name: (count, dtype)}, outputs, integer arguments)."""
    text = Path("main.cpp").read_text()
    counts = {m[0]: int(m[1]) for m in re.findall(r"size_t elemCount_(\w+) = (\d+);", text)}
    types = {m[0]: HOST[m[1]] for m in re.findall(r"size_t fileSize_(\w+) = \w+ \* sizeof\(([^)]+)\);", text)}
    ints = [int(v) for v in re.findall(r"\bint(?:32|64)_t \w+ = (-?\d+);", text)]
    names = re.findall(r'ReadFile\("\./(\w+)\.bin"', text)
    outputs = Path("outputs.txt").read_text().split()
    return names, {n: (counts[n], types[n]) for n in names}, outputs, ints


def write(prefix, arrays, layout):
    for name, data in arrays.items():
        count, dtype = layout[name]
        data = np.asarray(data, dtype=dtype).reshape(-1)
        assert data.size == count, f"{name}: {data.size} elements, the case has {count}"
        data.tofile(f"{prefix}{name}.bin")


def compare(atol):
    """Exits 2 (printing the worst element) when an output is not within atol."""
    _, layout, outputs, _ = case()
    ok = True
    for name in outputs:
        count, dtype = layout[name]
        want = np.fromfile(f"golden_{name}.bin", dtype=dtype)
        got = np.fromfile(f"{name}.bin", dtype=dtype)
        diff = np.abs(want.astype(np.float64) - got.astype(np.float64))
        if diff.size != count or not np.all(diff <= atol):
            i = int(np.argmax(diff))
            print(f"[ERROR] {name}: max diff {diff[i]} at {i} (golden {want[i]}, out {got[i]})")
            ok = False
    sys.exit(0 if ok else 2)


def binary_golden(expected):
    """Inputs a, b (uniform in [-2, 2), seeded), c zero; golden c = expected(a, b)."""
    names, layout, outputs, ints = case()
    assert ints == [1], f"the integer argument n is {ints}, the board's value is 1"
    rng = np.random.default_rng(7)
    a, b = (rng.uniform(-2.0, 2.0, layout[n][0]).astype(np.float32) for n in names[:2])
    write("", {names[0]: a, names[1]: b, names[2]: np.zeros(layout[names[2]][0])}, layout)
    write("golden_", {outputs[0]: expected(a, b)}, layout)
