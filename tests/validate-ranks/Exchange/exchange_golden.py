#!/usr/bin/env python3
# One rank's case (its number is the integer argument `me`, as main.cpp
# declares it): src is the rank's row, gath and sig zero; the golden gath
# holds every rank's row in rank order, sig a 1 from the other rank.
import numpy as np

from validation_runtime import case, write

RANKS = 2


def row(rank):
    return np.arange(64, dtype=np.float32) * 0.5 + 100 * rank - 3


names, layout, outputs, ints = case()
me = ints[0]
src, gath, sig, ctx = names
write("", {src: row(me), gath: np.zeros(2 * 64), sig: np.zeros(2), ctx: np.zeros(layout[ctx][0])}, layout)
write("golden_", {gath: np.concatenate([row(r) for r in range(RANKS)]),
                  sig: [0 if r == me else 1 for r in range(RANKS)]}, layout)
