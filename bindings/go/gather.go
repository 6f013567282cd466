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
