package pto

import (
	"unsafe"

	"github.com/libpto/pto-go/internal/ptoc"
)

// tableDType is the dtype a table of T is passed as for a tile of dtype
// tile: the tile's own when T stores it (uint16 for Float16 and BFloat16),
// else T's, which libpto then refuses as ErrDTypeMismatch.
func tableDType[T Storage](tile uintptr) DType {
	want, alt := storageDType[T]()
	if tile != 0 {
		got := DType(ptoc.Pto_tile_dtype(tile))
		if got == want || got == alt || (want == Uint16 && got == BFloat16) {
			return got
		}
	}
	return want
}

// tablePointer is the address of table's first element, nil for an empty
// slice (libpto reports a NULL table).
func tablePointer[T Storage](table []T) unsafe.Pointer {
	if len(table) == 0 {
		return nil
	}
	return unsafe.Pointer(&table[0])
}

// MGatherOOB is MGATHER with the page's GatherOOB (pto_mgather_oob): as
// MGather, except that an index past the table (its rows under CoalesceRow,
// its elements under CoalesceElem; an index read as a uint32) is clamped to
// the last (GatherOobClamp), taken modulo the capacity (GatherOobWrap) or
// gives zero bits (GatherOobZero); GatherOobUndefined refuses it as MGather.
func MGatherOOB[T Storage](dst *Tile, table []T, indices *Tile, coalesce Coalesce, oob GatherOob) error {
	var hs [2]uintptr
	tiles := []*Tile{dst, indices}
	if err := resolve("pto.MGatherOOB", []string{"dst", "indices"}, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_mgather_oob(hs[0], tablePointer(table), int64(len(table)),
		ptoc.Enum_SS_pto_dtype(tableDType[T](hs[0])), hs[1], ptoc.Enum_SS_pto_coalesce(coalesce),
		ptoc.Enum_SS_pto_gather_oob(oob)))
	keepAlive(tiles)
	return err
}

// MScatterEx is MSCATTER with the page's ScatterAtomicOp and ScatterOOB
// (pto_mscatter_ex): as MScatter, except that ScatterAtomicAdd, Max and Min
// combine each source element with the table's, one at a time in row-major
// order (the dtypes per profile as pto_c.h lists them), and an index past
// the table is skipped (ScatterOobSkip), clamped (ScatterOobClamp) or
// wrapped (ScatterOobWrap); ScatterOobUndefined refuses it as MScatter.
func MScatterEx[T Storage](table []T, src, indices *Tile, coalesce Coalesce, atomic ScatterAtomic, oob ScatterOob) error {
	var hs [2]uintptr
	tiles := []*Tile{src, indices}
	if err := resolve("pto.MScatterEx", []string{"src", "indices"}, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_mscatter_ex(tablePointer(table), int64(len(table)),
		ptoc.Enum_SS_pto_dtype(tableDType[T](hs[0])), hs[0], hs[1], ptoc.Enum_SS_pto_coalesce(coalesce),
		ptoc.Enum_SS_pto_scatter_atomic(atomic), ptoc.Enum_SS_pto_scatter_oob(oob)))
	keepAlive(tiles)
	return err
}

// TQuantMX is TQUANT's MX forms (pto_tquant_mx): src in blocks of 32
// (groupAxis 1: along a row; 0: down a column) quantised to E4M3 codes (dst
// Int8, Uint8 or Float8E4M3) or E2M1 ones (Float4E2M1X2, two codes a byte),
// with one E8M0 exponent per block in exp (Uint8, Int8 or Float8E8M0); max
// and scaling, when not nil, receive each block's largest magnitude and
// reciprocal scale in src's dtype. Bit for bit as A5; refused under
// ProfileA2A3. Written here, not generated: exp, max and scaling besides dst
// fit no row.
func TQuantMX(dst, src, exp, max, scaling *Tile, alg MxAlg, groupAxis int) error {
	var hs [5]uintptr
	tiles := []*Tile{dst, src, exp, max, scaling}
	names := []string{"dst", "src", "exp", "max", "scaling"}
	if err := resolve("pto.TQuantMX", names, tiles, hs[:]); err != nil {
		return err
	}
	err := check(ptoc.Pto_tquant_mx(hs[0], hs[1], hs[2], hs[3], hs[4], ptoc.Enum_SS_pto_mx_alg(alg), groupAxis))
	keepAlive(tiles)
	return err
}
