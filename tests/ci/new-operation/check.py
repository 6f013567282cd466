"""The four dummy rows from Python: the generated calls, the generated enum,
a refusal's message, and the Special row's text form."""
import numpy as np

import pto

a = pto.Tile.from_numpy(np.array([[2, -3, 0.5, 9]], dtype=np.float32))
b = pto.Tile.from_numpy(np.array([[10, 3, -2, 0.5]], dtype=np.float32))
with pto.Tile(pto.DType.FLOAT32, 1, 4) as d:
    assert (pto.tscratch(d, a, b).numpy() == [[8, 6, 2.5, 8.5]]).all()
with pto.Tile(pto.DType.FLOAT32, 1, 4) as d, pto.Tile(pto.DType.FLOAT32, 1, 4) as t:
    assert (pto.tscratch_pick(d, a, b, t, pto.ScratchPick.SECOND).numpy() == [[10, 3, -2, 0.5]]).all()
    assert (pto.tscratch_pick(d, a, b, t, pto.ScratchPick.FIRST).numpy() == [[2, -3, 0.5, 9]]).all()
    try:
        pto.tscratch_pick(d, a, b, t, 2)
    except pto.Error as e:
        assert "mode" in str(e), e
    else:
        raise SystemExit("tscratch_pick took mode 2")
# In text: the row found by its mnemonic, its mode the default (FIRST).
t = "!pto.tile_buf<vec, 1x4xf32>"
prog = pto.Program(f"pto.tscratch_pick ins(%a, %b, %t : {t}, {t}, {t}) outs(%d : {t})")
out = prog(a=a.numpy(), b=b.numpy())
assert (out["d"] == [[2, -3, 0.5, 9]]).all(), out
# The dummy with a kernel of its own: scalar * a + b, rounded once.
with pto.Tile(pto.DType.FLOAT32, 1, 4) as d:
    assert (pto.tscratch_fma(d, a, b, 2.0).numpy() == [[14, -3, -1, 18.5]]).all()
# The dummy with two tile results, a value and a table in memory (a numpy
# array): dst = src + table[index], dst1 = src * table[index], the value.
table = np.array([0.5, -3, 4, 8], dtype=np.float32)
with pto.Tile(pto.DType.FLOAT32, 1, 4) as d, pto.Tile(pto.DType.FLOAT32, 1, 4) as d1:
    assert pto.tscratch_table(d, table, a, d1, 2) == 4.0
    assert (d.numpy() == [[6, 1, 4.5, 13]]).all()
    assert (d1.numpy() == [[8, -12, 2, 36]]).all()
