package pto

import "github.com/libpto/pto-go/internal/ptoc"

// TQuantHif4 is TQUANT_HIF4 (pto_tquant_hif4): a BFloat16 src quantised to
// HiFloat4 in groups of 64 along each row: dst the E1M2 codes
// (Float4E1M2X2, two a byte), exp one Uint32 metadata word per group (bits
// 0-7 Ea, an e6m2 code; bit 8+j Eb of 8-group j; bit 16+q Ec of 4-group q);
// max and scaling, when not nil, each 4-group's largest magnitude and scale
// (BFloat16). Bit for bit as pto-isa's A6 golden; under ProfileHost only.
// Written here, not generated: exp, max and scaling besides dst fit no row.
func TQuantHif4(dst, src, exp, max, scaling *Tile) error {
	var hs [5]uintptr
	tiles := []*Tile{dst, src, exp, max, scaling}
	names := []string{"dst", "src", "exp", "max", "scaling"}
	if err := resolve("pto.TQuantHif4", names, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tquant_hif4(hs[0], hs[1], hs[2], hs[3], hs[4]))
	keepAlive(tiles)
	return err
}
