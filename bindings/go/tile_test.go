package pto_test

import (
	"errors"
	"runtime"
	"testing"

	pto "github.com/libpto/pto-go"
)

// Copies of a Tile value share one handle: closing both frees it once (this
// crashed with a double free when Tile held the handle itself).
func TestTileCopyCloseIsSafe(t *testing.T) {
	tile, err := pto.NewTile(pto.Float32, 2, 2)
	must(t, err)
	c := *tile
	must(t, tile.Close())
	must(t, c.Close())
	if !c.Closed() || !tile.Closed() {
		t.Fatal("a copy of a closed tile is not closed")
	}
	if err := c.WriteFloat32([]float32{1, 2, 3, 4}); !errors.Is(err, pto.ErrClosed) {
		t.Fatalf("write through a copy of a closed tile: %v", err)
	}
	// The zero Tile is a closed one.
	var zero pto.Tile
	must(t, zero.Close())
	if !zero.Closed() || zero.Rows() != 0 {
		t.Fatal("zero Tile")
	}
	if err := pto.TRsqrt(&zero, &zero); !errors.Is(err, pto.ErrClosed) {
		t.Fatalf("op on the zero Tile: %v", err)
	}
}

func TestViewIsZeroCopy(t *testing.T) {
	tile := f32Tile(t, pto.Float32, 2, 2, 1, 4, 16, 64)
	must(t, pto.View(tile, func(v []float32) {
		if len(v) != 4 || v[3] != 64 {
			t.Fatalf("view %v", v)
		}
		v[0] = 9 // writes the tile
	}))
	must(t, pto.TRsqrt(tile, tile))
	var seen []float32
	must(t, pto.View(tile, func(v []float32) { seen = append(seen, v...) }))
	expectF32(t, "view after trsqrt", seen, []float32{1.0 / 3, 0.5, 0.25, 0.125})

	h := newTile(t, pto.Float16, 1, 2)
	must(t, h.WriteFloat32([]float32{1, -2}))
	must(t, pto.View(h, func(v []uint16) {
		if v[0] != 0x3c00 || v[1] != 0xc000 {
			t.Fatalf("float16 bits %#x", v)
		}
	}))
	expectStatus(t, pto.View(h, func([]float32) { t.Fatal("f ran") }), pto.ErrDTypeMismatch, "pto.View")
	i := newTile(t, pto.Int32, 1, 1)
	expectStatus(t, pto.View(i, func([]uint32) { t.Fatal("f ran") }), pto.ErrDTypeMismatch, "pto.View")
	must(t, i.Close())
	if err := pto.View(i, func([]int32) { t.Fatal("f ran") }); !errors.Is(err, pto.ErrClosed) {
		t.Fatalf("view of a closed tile: %v", err)
	}
}

// Tiles dropped without Close are collected: the binding counts their C
// storage and forces a collection once enough of it is pending, so a loop
// that never closes stays bounded.
func TestUnclosedTilesAreCollected(t *testing.T) {
	runtime.GC()
	_, forcedBefore := pto.NativeBytes()
	const perTile = 64 * 64 * 4
	n := int(3*pto.GCTriggerBytes/perTile) + 1 // three triggers' worth
	for i := 0; i < n; i++ {
		if _, err := pto.NewTile(pto.Float32, 64, 64); err != nil {
			t.Fatal(err)
		}
	}
	live, forced := pto.NativeBytes()
	if forced-forcedBefore < 2 {
		t.Fatalf("%d unclosed tiles (%d MiB) forced %d collections", n, n*perTile>>20, forced-forcedBefore)
	}
	if live > 3*pto.GCTriggerBytes {
		t.Fatalf("%d MiB of unclosed tiles still live", live>>20)
	}
	// Closed tiles never force one.
	_, forcedBefore = pto.NativeBytes()
	for i := 0; i < n; i++ {
		tile, err := pto.NewTile(pto.Float32, 64, 64)
		must(t, err)
		must(t, tile.Close())
	}
	if _, forced := pto.NativeBytes(); forced != forcedBefore {
		t.Fatalf("closed tiles forced %d collections", forced-forcedBefore)
	}
}

// benchTiles creates n float32 tiles of rows x cols filled with 1, 2, 3, ...
// (closed when the benchmark ends) and starts the timer.
func benchTiles(b *testing.B, n, rows, cols int) []*pto.Tile {
	tiles := make([]*pto.Tile, n)
	for i := range tiles {
		t, err := pto.NewTile(pto.Float32, rows, cols)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { t.Close() })
		_ = pto.View(t, func(v []float32) {
			for k := range v {
				v[k] = float32(k + 1)
			}
		})
		tiles[i] = t
	}
	b.ReportAllocs()
	b.ResetTimer()
	return tiles
}

func BenchmarkTRsqrt1x1(b *testing.B) {
	t := benchTiles(b, 2, 1, 1)
	for i := 0; i < b.N; i++ {
		if err := pto.TRsqrt(t[0], t[1]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTPow1x1(b *testing.B) {
	t := benchTiles(b, 4, 1, 1)
	for i := 0; i < b.N; i++ {
		if err := pto.TPow(t[0], t[1], t[2], t[3], pto.PowDefault); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTRsqrt64x64(b *testing.B) {
	t := benchTiles(b, 2, 64, 64)
	for i := 0; i < b.N; i++ {
		if err := pto.TRsqrt(t[0], t[1]); err != nil {
			b.Fatal(err)
		}
	}
}

// A failing call allocates only its error.
func BenchmarkTRsqrtFailing(b *testing.B) {
	dst, _ := pto.NewTile(pto.Float32, 1, 1)
	defer dst.Close()
	src, _ := pto.NewTile(pto.Int32, 1, 1)
	defer src.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := pto.TRsqrt(dst, src); err == nil {
			b.Fatal("no error")
		}
	}
}
