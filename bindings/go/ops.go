package pto

import "github.com/libpto/pto-go/internal/ptoc"

// The five instructions. The iteration domain is dst's valid region; dst may
// be the same tile as a source. A nil tile is reported by libpto as
// ErrNullArgument; a closed tile gives an error matching ErrClosed.
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

var (
	powNames   = []string{"dst", "base", "exp", "tmp"}
	unaryNames = []string{"dst", "src"}
	preluNames = []string{"dst", "src0", "src1", "tmp"}
	binNames   = []string{"dst", "src0", "src1"}
)

// TPow computes dst = base ^ exp elementwise. tmp is required scratch of the
// same dtype and valid region; libpto does not write it.
// PowHighPrecision is for Float32, Float16 and BFloat16 only; integers wrap.
func TPow(dst, base, exp, tmp *Tile, algo PowAlgorithm) error {
	var hs [4]uintptr
	tiles := []*Tile{dst, base, exp, tmp}
	if err := resolve("pto.TPow", powNames, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tpow(hs[0], hs[1], hs[2], hs[3], ptoc.Enum_SS_pto_pow_algorithm(algo)))
	keepAlive(tiles)
	return err
}

// TRsqrt computes dst = 1 / sqrt(src) for Float32 or Float16 tiles.
func TRsqrt(dst, src *Tile) error {
	var hs [2]uintptr
	tiles := []*Tile{dst, src}
	if err := resolve("pto.TRsqrt", unaryNames, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_trsqrt(hs[0], hs[1]))
	keepAlive(tiles)
	return err
}

// TPrelu computes dst = src0 > 0 ? src0 : src0 * src1 elementwise (src1 is
// the per-element slope). tmp may be nil (a profile may require it).
func TPrelu(dst, src0, src1, tmp *Tile) error {
	var hs [4]uintptr
	tiles := []*Tile{dst, src0, src1, tmp}
	if err := resolve("pto.TPrelu", preluNames, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tprelu(hs[0], hs[1], hs[2], hs[3]))
	keepAlive(tiles)
	return err
}

// TColExpandDiv computes dst[i,j] = src0[i,j] / src1[0,j] for Float32 or
// Float16 tiles.
func TColExpandDiv(dst, src0, src1 *Tile) error {
	var hs [3]uintptr
	tiles := []*Tile{dst, src0, src1}
	if err := resolve("pto.TColExpandDiv", binNames, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tcolexpanddiv(hs[0], hs[1], hs[2]))
	keepAlive(tiles)
	return err
}

// TPartAdd adds src0 and src1 where both valid regions contain (i,j) and
// copies the one valid source elsewhere in dst's valid region. One source's
// valid region must equal dst's and the other's must not exceed it.
func TPartAdd(dst, src0, src1 *Tile) error {
	var hs [3]uintptr
	tiles := []*Tile{dst, src0, src1}
	if err := resolve("pto.TPartAdd", binNames, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tpartadd(hs[0], hs[1], hs[2]))
	keepAlive(tiles)
	return err
}
