"""No leaks: 100k tiles (owned, placed, viewed, failing) keep RSS bounded."""

import gc
import resource

import numpy as np
import pytest

import pto
from helpers import D


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def churn(n):
    x = pto.Tile(D.FLOAT32, 16, 16)
    for i in range(n):
        t = pto.Tile(D.FLOAT32, 16, 16)  # 1 KiB of storage each
        pto.trsqrt(t, x)
        if i % 4 == 0:
            v = t.numpy()
            t.close()  # deferred until the view dies
            del v
        elif i % 4 == 1:
            with pto.Buffer(1024) as b:
                p = pto.Tile.at(b, 0, D.FLOAT32, 16, 16)
                pto.tprelu(p, x, x)
        elif i % 4 == 2:
            try:
                pto.tpow(t, x, x, None)
            except pto.NullArgumentError:
                pass
        else:
            w = pto.Buffer.wrap(np.zeros(1024, np.uint8))
            pto.Tile.at(w, 0, D.UINT8, 32, 32).numpy()
    gc.collect()


@pytest.mark.skipif(not hasattr(resource, "getpagesize"), reason="needs /proc/self/statm")
def test_100k_tiles_keep_rss_bounded():
    churn(10_000)  # warm up allocator and caches
    before = rss_bytes()
    churn(100_000)
    grown = rss_bytes() - before
    # A leaked 1 KiB tile per iteration would be ~100 MiB.
    assert grown < 8 << 20, f"RSS grew by {grown / 2**20:.1f} MiB over 100k tiles"
