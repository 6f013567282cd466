"""Instructions per call on 1x1 float32 tiles, counted by callgrind: in the
binding (pto._pto) and in libpto (which runs its AVX2 kernels under valgrind).
Unlike times, counts do not depend on other load on the machine. The
interpreter's own share is left out: attributing it needs symbols Debian's
python3 does not ship.

    python bench/lab/python/call_instructions.py      # needs valgrind; ~4 minutes
"""

import os
import re
import subprocess
import sys
import tempfile

CALLS = 20_000
STATEMENTS = {
    "tpow": "tpow(d, a, b, t)",
    "trsqrt": "trsqrt(d, a)",
    "tprelu": "tprelu(d, a, b)",
    "tcolexpanddiv": "tcolexpanddiv(d, a, b)",
    "tpartadd": "tpartadd(d, a, b)",
}
PROGRAM = """
import sys
import numpy as np
import pto
from pto import tpow, trsqrt, tprelu, tcolexpanddiv, tpartadd
a = pto.Tile.from_numpy(np.full((1, 1), 2.0, np.float32))
b = pto.Tile.from_numpy(np.full((1, 1), 0.5, np.float32))
d, t = pto.Tile(pto.DType.FLOAT32, 1, 1), pto.Tile(pto.DType.FLOAT32, 1, 1)
def run(n):
    for _ in range(n):
        {statement}
run(1000)
"""


def count(statement, calls):
    """{object file: Ir} for a run of `calls` calls (setup included)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "run.py")
        with open(script, "w") as f:
            f.write(PROGRAM.format(statement=statement) + f"run({calls})\n")
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, sys.executable, script],
                       check=True, capture_output=True)
        text = subprocess.run(["callgrind_annotate", "--threshold=100", out], check=True,
                              capture_output=True, text=True).stdout
    totals = {}
    for m in re.finditer(r"^\s*([\d,]+) \([\s\d.]+%\)\s+\S+ \[(.+?)\]$", text, re.M):
        obj = os.path.basename(m.group(2))
        key = "binding" if obj.startswith("_pto") else "libpto" if obj.startswith("libpto") else None
        if key is not None:
            totals[key] = totals.get(key, 0) + int(m.group(1).replace(",", ""))
    return totals


def main():
    print(f"instructions per call (callgrind, {CALLS} calls minus {CALLS // 2}), float32 1x1")
    print(f"{'operation':<16}{'binding':>10}{'libpto':>10}")
    for name, statement in STATEMENTS.items():
        big, small = count(statement, CALLS), count(statement, CALLS // 2)
        per = {k: (big.get(k, 0) - small.get(k, 0)) / (CALLS - CALLS // 2) for k in ("binding", "libpto")}
        print(f"{name:<16}{per['binding']:>10.0f}{per['libpto']:>10.0f}")


if __name__ == "__main__":
    main()
