package pto

import "github.com/libpto/pto-go/internal/ptoc"

// TMovFpEx takes option flags besides its tiles, which no row of
// src/operations.def has, so it is written here rather than generated in
// ops_generated.go.

// The flags of TMovFpEx (pto_c.h's PTO_FIXPIPE_*), combined with |.
const (
	// FixpipeRelu is the fixpipe's relu before the conversion's rounding
	// (TSTORE / TMOV's ReluPreMode::NormalRelu).
	FixpipeRelu uint = 1
	// FixpipeCast is the conversion without a quantisation word (fp must
	// be nil).
	FixpipeCast uint = 2
	// FixpipeStore is TSTORE's pairs, which add FLOAT32 -> FLOAT32 scaled.
	FixpipeStore uint = 4
)

var tmov_fp_exOperands = []string{"dst", "src", "fp"}

// TMovFpEx is TMOV_FP with options (pto_tmov_fp_ex): TMovFp, with the
// fixpipe's relu, its cast modes without a quantisation word or TSTORE's
// pairs as flags selects (0: TMovFp itself). fp may be nil (the thread's
// quantisation parameter; nil with FixpipeCast).
func TMovFpEx(dst *Tile, src *Tile, fp *Tile, flags uint) error {
	var hs [3]uintptr
	tiles := []*Tile{dst, src, fp}
	if err := resolve("pto.TMovFpEx", tmov_fp_exOperands, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tmov_fp_ex(hs[0], hs[1], hs[2], flags))
	keepAlive(tiles)
	return err
}
