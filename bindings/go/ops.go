package pto

// The instructions, one function each, are in ops_generated.go, which
// tools/gen-operations.py writes from src/operations.def (the `core` suite's
// "bindings match src/operations.def" test fails when it is out of date).
// The iteration domain is dst's valid region; dst may be the same tile as a
// source. A nil tile is reported by libpto as ErrNullArgument; a closed tile
// gives an error matching ErrClosed.
//
// A call that succeeds allocates nothing on the Go heap and makes one cgo
// call (BenchmarkTRsqrt1x1 against BenchmarkBareCgo measures the overhead).

// resolve fills hs with the handles of tiles (names for the messages of a
// closed operand). Nothing here escapes, so it all stays on the stack.
func resolve(op string, names []string, tiles []*Tile, hs []uintptr) error {
	for i, t := range tiles {
		h, err := t.handleFor(op, names[i])
		if err != nil {
			return err
		}
		hs[i] = h
	}
	return nil
}

// keepAlive keeps the operands' storage alive until the C call has returned.
func keepAlive(tiles []*Tile) {
	for _, t := range tiles {
		t.keepAlive()
	}
}

// boolToInt passes a Go bool as the C int of an attribute such as
// pto_tcolsum's binary_order (0 or 1).
func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
