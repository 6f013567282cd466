package pto

import "github.com/libpto/pto-go/internal/ptoc"

// TSel takes three sources, which no row of src/operations.def has, so it is
// written here rather than generated in ops_generated.go.

var tselOperands = []string{"dst", "mask", "src0", "src1", "tmp"}

// TSel is TSEL (pto_tsel): src0 where the mask bit is set, else src1, bit
// for bit.
//
// mask is a Uint8 tile, bit j % 8 of byte j / 8 of a row for column j (what
// TCmp writes). dst's dtypes: HOST all; A2A3 INT16, UINT16, INT32, UINT32,
// FLOAT16, BFLOAT16, FLOAT32; A5 all.
//
// tmp is an optional scratch tile (nil for none; A2A3 requires a Uint32 one).
func TSel(dst *Tile, mask *Tile, src0 *Tile, src1 *Tile, tmp *Tile) error {
	var hs [5]uintptr
	tiles := []*Tile{dst, mask, src0, src1, tmp}
	if err := resolve("pto.TSel", tselOperands, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tsel(hs[0], hs[1], hs[2], hs[3], hs[4]))
	keepAlive(tiles)
	return err
}
