"""The operations release the GIL: while one thread is inside a long
operation, another Python thread makes progress; two threads on distinct large
tiles get the results of a sequential run. No timing is asserted."""

import threading

import numpy as np

import pto
from helpers import D, make, other_thread_progresses


def long_pow_operands(rows=1024, cols=2048):
    rng = np.random.default_rng(3)
    return [make(D.FLOAT32, rng.uniform(0.5, 2, (rows, cols))) for _ in range(2)] + \
        [pto.Tile(D.FLOAT32, rows, cols) for _ in range(2)]


def test_another_thread_progresses_during_an_operation():
    base, exp, dst, tmp = long_pow_operands()
    progressed = other_thread_progresses(lambda: pto.tpow(dst, base, exp, tmp, pto.PowAlgorithm.HIGH_PRECISION))
    assert progressed > 0, "no other thread ran while tpow was inside libpto"


def test_two_threads_on_large_tiles_match_a_sequential_run():
    rng = np.random.default_rng(4)
    inputs = [rng.uniform(0.5, 2, (256, 512)) for _ in range(4)]
    sequential = []
    for i in range(2):
        dst = pto.Tile(D.FLOAT32, 256, 512)
        pto.tpow(dst, make(D.FLOAT32, inputs[2 * i]), make(D.FLOAT32, inputs[2 * i + 1]),
                 pto.Tile(D.FLOAT32, 256, 512))
        sequential.append(dst.numpy().copy())
    results = [None, None]

    def work(i):
        b, e = make(D.FLOAT32, inputs[2 * i]), make(D.FLOAT32, inputs[2 * i + 1])
        dst, tmp = pto.Tile(D.FLOAT32, 256, 512), pto.Tile(D.FLOAT32, 256, 512)
        for _ in range(20):
            pto.tpow(dst, b, e, tmp)
        results[i] = dst.numpy()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        np.testing.assert_array_equal(results[i], sequential[i])


def test_close_from_another_thread_during_an_operation_is_safe():
    """A tile closed while an operation uses it is destroyed only afterwards."""
    base, exp, dst, tmp = long_pow_operands(512, 1024)
    started = threading.Event()

    def closer():
        started.wait()
        base.close()
        dst.close()

    t = threading.Thread(target=closer)
    t.start()
    started.set()
    for _ in range(3):
        try:
            pto.tpow(dst, base, exp, tmp)
        except ValueError:
            break  # closed before this call started: refused, not a crash
    t.join()
    assert base.closed and dst.closed
