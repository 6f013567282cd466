package pto

import (
	"runtime"

	"libpto/pto/internal/ptoc"
)

// The five instructions. The iteration domain is dst's valid region; dst may
// be the same tile as a source. A nil tile is reported by libpto as
// ErrNullArgument; a closed tile gives an error matching ErrClosed.

// handles resolves the operands of op in order (names for the messages).
func handles(op string, names []string, tiles ...*Tile) ([]uintptr, error) {
	hs := make([]uintptr, len(tiles))
	for i, t := range tiles {
		h, err := t.handleFor(op, names[i])
		if err != nil {
			return nil, err
		}
		hs[i] = h
	}
	return hs, nil
}

func keepAlive(tiles ...*Tile) {
	for _, t := range tiles {
		runtime.KeepAlive(t)
	}
}

// TPow computes dst = base ^ exp elementwise. tmp is required scratch of the
// same dtype and valid region (its contents afterwards are unspecified).
// PowHighPrecision is for Float32, Float16 and BFloat16 only; integers wrap.
func TPow(dst, base, exp, tmp *Tile, algo PowAlgorithm) error {
	hs, err := handles("pto.TPow", []string{"dst", "base", "exp", "tmp"}, dst, base, exp, tmp)
	if err != nil {
		return err
	}
	defer keepAlive(dst, base, exp, tmp)
	return call(func() ptoc.Enum_SS_pto_status {
		return ptoc.Pto_tpow(hs[0], hs[1], hs[2], hs[3], ptoc.Enum_SS_pto_pow_algorithm(algo))
	})
}

// TRsqrt computes dst = 1 / sqrt(src) for Float32 or Float16 tiles.
func TRsqrt(dst, src *Tile) error {
	hs, err := handles("pto.TRsqrt", []string{"dst", "src"}, dst, src)
	if err != nil {
		return err
	}
	defer keepAlive(dst, src)
	return call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_trsqrt(hs[0], hs[1]) })
}

// TPrelu computes dst = src0 > 0 ? src0 : src0 * src1 elementwise (src1 is
// the per-element slope). tmp may be nil.
func TPrelu(dst, src0, src1, tmp *Tile) error {
	hs, err := handles("pto.TPrelu", []string{"dst", "src0", "src1", "tmp"}, dst, src0, src1, tmp)
	if err != nil {
		return err
	}
	defer keepAlive(dst, src0, src1, tmp)
	return call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tprelu(hs[0], hs[1], hs[2], hs[3]) })
}

// TColExpandDiv computes dst[i,j] = src0[i,j] / src1[0,j] for Float32 or
// Float16 tiles.
func TColExpandDiv(dst, src0, src1 *Tile) error {
	hs, err := handles("pto.TColExpandDiv", []string{"dst", "src0", "src1"}, dst, src0, src1)
	if err != nil {
		return err
	}
	defer keepAlive(dst, src0, src1)
	return call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tcolexpanddiv(hs[0], hs[1], hs[2]) })
}

// TPartAdd adds src0 and src1 where both valid regions contain (i,j) and
// copies the one valid source elsewhere in dst's valid region. One source's
// valid region must equal dst's and the other's must not exceed it.
func TPartAdd(dst, src0, src1 *Tile) error {
	hs, err := handles("pto.TPartAdd", []string{"dst", "src0", "src1"}, dst, src0, src1)
	if err != nil {
		return err
	}
	defer keepAlive(dst, src0, src1)
	return call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tpartadd(hs[0], hs[1], hs[2]) })
}
