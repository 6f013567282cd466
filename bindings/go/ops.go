package pto

import "github.com/libpto/pto-go/internal/ptoc"

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

// TMrgSortLists is TMRGSORT's multi-list form (pto_tmrgsort_lists): two to
// four sorted lists of value-index pairs (src2 and src3 may be nil) merged
// into dst, stopping when one list is used up if exhausted; it returns the
// pairs taken from each list. tmp may be nil under HOST. Written here, not
// generated: it gives the counts besides dst.
func TMrgSortLists(dst, src0, src1, src2, src3, tmp *Tile, exhausted bool) ([4]uint16, error) {
	var hs [6]uintptr
	tiles := []*Tile{dst, src0, src1, src2, src3, tmp}
	names := []string{"dst", "src0", "src1", "src2", "src3", "tmp"}
	var executed [4]uint16
	if err := resolve("pto.TMrgSortLists", names, tiles, hs[:]); err != nil {
		return executed, err
	}
	err := check(ptoc.Pto_tmrgsort_lists(hs[0], hs[1], hs[2], hs[3], hs[4], hs[5],
		boolToInt(exhausted), &executed[0]))
	keepAlive(tiles)
	return executed, err
}

// boolToInt passes a Go bool as the C int of an attribute such as
// pto_tcolsum's binary_order (0 or 1).
func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
