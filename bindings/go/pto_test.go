package pto_test

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/libpto/pto-go"
)

// newTile creates a tile and closes it when the test ends.
func newTile(t *testing.T, dtype pto.DType, rows, cols int) *pto.Tile {
	t.Helper()
	tile, err := pto.NewTile(dtype, rows, cols)
	if err != nil {
		t.Fatalf("NewTile(%v, %d, %d): %v", dtype, rows, cols, err)
	}
	t.Cleanup(func() { tile.Close() })
	return tile
}

func f32Tile(t *testing.T, dtype pto.DType, rows, cols int, values ...float32) *pto.Tile {
	t.Helper()
	tile := newTile(t, dtype, rows, cols)
	if values != nil {
		if err := tile.WriteFloat32(values); err != nil {
			t.Fatalf("WriteFloat32: %v", err)
		}
	}
	return tile
}

func readF32(t *testing.T, tile *pto.Tile) []float32 {
	t.Helper()
	v, err := tile.ReadFloat32()
	if err != nil {
		t.Fatalf("ReadFloat32: %v", err)
	}
	return v
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func sameFloat(a, b float32) bool {
	if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) {
		return math.IsNaN(float64(a)) && math.IsNaN(float64(b))
	}
	return a == b && math.Signbit(float64(a)) == math.Signbit(float64(b))
}

func expectF32(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !sameFloat(got[i], want[i]) {
			t.Errorf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

// expectStatus checks that err is a *pto.Error with status want whose
// message names the operation.
func expectStatus(t *testing.T, err error, want pto.Status, inMessage string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", want)
	}
	var perr *pto.Error
	if !errors.As(err, &perr) {
		t.Fatalf("error %v (%T) is not a *pto.Error", err, err)
	}
	if perr.Status != want || !errors.Is(err, want) {
		t.Fatalf("status %v, want %v (%v)", perr.Status, want, err)
	}
	if !strings.Contains(perr.Message, inMessage) {
		t.Fatalf("message %q does not contain %q", perr.Message, inMessage)
	}
	if !strings.Contains(err.Error(), want.String()) {
		t.Fatalf("Error() %q does not name %v", err.Error(), want)
	}
}

// ---------------------------------------------------------------- library --

func TestVersionAndTarget(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(pto.Version()) {
		t.Errorf("Version() = %q", pto.Version())
	}
	if pto.SIMDTarget() == "" {
		t.Error("SIMDTarget() is empty")
	}
}

func TestDTypes(t *testing.T) {
	sizes := map[pto.DType]int{
		pto.Int8: 1, pto.Uint8: 1, pto.Int16: 2, pto.Uint16: 2, pto.Int32: 4, pto.Uint32: 4,
		pto.Float16: 2, pto.BFloat16: 2, pto.Float32: 4, pto.Int64: 8, pto.Uint64: 8,
		pto.Float8E4M3: 1, pto.Float8E5M2: 1, pto.HiFloat8: 1, pto.Float8E8M0: 1,
		pto.Float4E2M1X2: 1, pto.Float4E1M2X2: 1, pto.Int4X2: 1,
	}
	for d, size := range sizes {
		if d.Size() != size {
			t.Errorf("%v.Size() = %d, want %d", d, d.Size(), size)
		}
	}
	if pto.DType(99).Size() != 0 {
		t.Error("an invalid dtype has a size")
	}
	if pto.Float32.String() != "FLOAT32" || pto.BFloat16.String() != "BFLOAT16" {
		t.Error("dtype names")
	}
}

func TestStatusNames(t *testing.T) {
	if pto.ErrShapeMismatch.String() != "PTO_ERR_SHAPE_MISMATCH" || pto.StatusOK.String() != "PTO_OK" {
		t.Errorf("status names: %v %v", pto.ErrShapeMismatch, pto.StatusOK)
	}
	if pto.ErrOutOfMemory.String() != "PTO_ERR_OUT_OF_MEMORY" {
		t.Errorf("status name %v", pto.ErrOutOfMemory)
	}
}

// ------------------------------------------------------------------ tiles --

func TestTileShapeAndValidRegion(t *testing.T) {
	tile := newTile(t, pto.Int16, 3, 5)
	if tile.DType() != pto.Int16 || tile.Rows() != 3 || tile.Cols() != 5 || tile.Len() != 15 {
		t.Fatalf("shape %v %dx%d", tile.DType(), tile.Rows(), tile.Cols())
	}
	if tile.ValidRows() != 3 || tile.ValidCols() != 5 {
		t.Fatalf("valid %dx%d", tile.ValidRows(), tile.ValidCols())
	}
	must(t, tile.SetValid(2, 0))
	if tile.ValidRows() != 2 || tile.ValidCols() != 0 {
		t.Fatalf("valid %dx%d", tile.ValidRows(), tile.ValidCols())
	}
	expectStatus(t, tile.SetValid(4, 1), pto.ErrOutOfRange, "")
	expectStatus(t, tile.SetValid(-1, 1), pto.ErrOutOfRange, "")
	if tile.ValidRows() != 2 || tile.ValidCols() != 0 {
		t.Fatal("a failed SetValid changed the region")
	}
	zeros, err := tile.ReadInt16()
	must(t, err)
	for _, v := range zeros {
		if v != 0 {
			t.Fatal("a new tile is not zero-filled")
		}
	}
}

func TestNewTileErrors(t *testing.T) {
	_, err := pto.NewTile(pto.Float32, 0, 4)
	expectStatus(t, err, pto.ErrInvalidArgument, "pto_tile_create")
	_, err = pto.NewTile(pto.DType(42), 1, 1)
	expectStatus(t, err, pto.ErrInvalidArgument, "pto_tile_create")
	_, err = pto.NewTile(pto.Float32, 1<<20, 1<<20)
	expectStatus(t, err, pto.ErrInvalidArgument, "pto_tile_create")
	_, err = pto.NewTile(pto.Float32, -1, 4)
	expectStatus(t, err, pto.ErrInvalidArgument, "NewTile")
}

func TestLifetime(t *testing.T) {
	a, err := pto.NewTile(pto.Float32, 2, 2)
	must(t, err)
	b := f32Tile(t, pto.Float32, 2, 2, 1, 4, 16, 64)
	must(t, a.Close())
	must(t, a.Close()) // harmless
	if !a.Closed() || b.Closed() {
		t.Fatal("Closed()")
	}
	if a.Rows() != 0 || a.Cols() != 0 || a.ValidRows() != 0 || a.ValidCols() != 0 || a.Len() != 0 {
		t.Fatal("accessors of a closed tile are not 0")
	}
	checkClosed := func(err error) {
		t.Helper()
		expectStatus(t, err, pto.ErrNullArgument, "closed")
		if !errors.Is(err, pto.ErrClosed) {
			t.Fatalf("%v does not match ErrClosed", err)
		}
	}
	checkClosed(a.SetValid(1, 1))
	checkClosed(a.WriteFloat32([]float32{1, 2, 3, 4}))
	_, err = a.ReadFloat32()
	checkClosed(err)
	checkClosed(a.WriteInt32([]int32{1, 2, 3, 4}))
	_, err = a.ReadUint8()
	checkClosed(err)
	checkClosed(pto.TRsqrt(a, b))
	checkClosed(pto.TRsqrt(b, a))
	checkClosed(pto.TPow(b, b, b, a, pto.PowDefault))
	checkClosed(pto.TPrelu(b, b, b, a))
	checkClosed(pto.TColExpandDiv(b, a, b))
	checkClosed(pto.TPartAdd(b, b, a))
	// The open operand is untouched.
	expectF32(t, "b", readF32(t, b), []float32{1, 4, 16, 64})

	var nilTile *pto.Tile
	must(t, nilTile.Close())

	// Tiles dropped without Close are freed by the finalizer.
	for i := 0; i < 100; i++ {
		if _, err := pto.NewTile(pto.Uint8, 64, 64); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
}

// ----------------------------------------------------------- bulk copies --

func TestRoundTripIntegers(t *testing.T) {
	{
		tile := newTile(t, pto.Int8, 2, 3)
		in := []int8{math.MinInt8, -1, 0, 1, 42, math.MaxInt8}
		must(t, tile.WriteInt8(in))
		out, err := tile.ReadInt8()
		must(t, err)
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("int8 round trip %v -> %v", in, out)
			}
		}
	}
	{
		tile := newTile(t, pto.Uint8, 1, 4)
		in := []uint8{0, 1, 200, math.MaxUint8}
		must(t, tile.WriteUint8(in))
		out, err := tile.ReadUint8()
		must(t, err)
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("uint8 round trip %v -> %v", in, out)
			}
		}
	}
	{
		tile := newTile(t, pto.Int16, 2, 2)
		in := []int16{math.MinInt16, -2, 300, math.MaxInt16}
		must(t, tile.WriteInt16(in))
		out, err := tile.ReadInt16()
		must(t, err)
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("int16 round trip %v -> %v", in, out)
			}
		}
	}
	{
		tile := newTile(t, pto.Uint16, 2, 2)
		in := []uint16{0, 1, 40000, math.MaxUint16}
		must(t, tile.WriteUint16(in))
		out, err := tile.ReadUint16()
		must(t, err)
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("uint16 round trip %v -> %v", in, out)
			}
		}
	}
	{
		tile := newTile(t, pto.Int32, 1, 5)
		in := []int32{math.MinInt32, -7, 0, 123456789, math.MaxInt32}
		must(t, tile.WriteInt32(in))
		out, err := tile.ReadInt32()
		must(t, err)
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("int32 round trip %v -> %v", in, out)
			}
		}
	}
	{
		tile := newTile(t, pto.Uint32, 1, 3)
		in := []uint32{0, 3000000000, math.MaxUint32}
		must(t, tile.WriteUint32(in))
		out, err := tile.ReadUint32()
		must(t, err)
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("uint32 round trip %v -> %v", in, out)
			}
		}
	}
}

func TestRoundTripFloats(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	denormal := math.Float32frombits(1) // smallest float32 subnormal
	{
		in := []float32{0, float32(math.Copysign(0, -1)), 1.5, -2.25, inf, -inf, nan, denormal}
		tile := f32Tile(t, pto.Float32, 2, 4, in...)
		expectF32(t, "float32", readF32(t, tile), in)
	}
	{
		// float16: exact values survive, 1 + 2^-11 rounds to even (1),
		// 65520 overflows to +inf, 2^-24 is the smallest subnormal.
		in := []float32{1.5, -0.099975586, 1 + 1.0/2048, 65520, 65504, nan, float32(math.Ldexp(1, -24)), -inf}
		want := []float32{1.5, -0.099975586, 1, inf, 65504, nan, float32(math.Ldexp(1, -24)), -inf}
		tile := f32Tile(t, pto.Float16, 2, 4, in...)
		expectF32(t, "float16", readF32(t, tile), want)
	}
	{
		// bfloat16 keeps 8 significant bits: 1 + 2^-8 rounds to even (1),
		// 1 + 3*2^-8 rounds up to 1 + 2^-6.
		in := []float32{1.5, 1 + 1.0/256, 1 + 3.0/256, 3.0e38, -inf, nan}
		want := []float32{1.5, 1, 1 + 1.0/64, math.Float32frombits(0x7f62 << 16), -inf, nan}
		tile := f32Tile(t, pto.BFloat16, 2, 3, in...)
		expectF32(t, "bfloat16", readF32(t, tile), want)
	}
}

func TestBulkCopyErrors(t *testing.T) {
	i8 := newTile(t, pto.Int8, 2, 2)
	expectStatus(t, i8.WriteInt8([]int8{1, 2, 3}), pto.ErrInvalidArgument, "pto_tile_write")
	expectStatus(t, i8.WriteInt8(nil), pto.ErrInvalidArgument, "pto_tile_write")
	expectStatus(t, i8.WriteInt16([]int16{1, 2}), pto.ErrDTypeMismatch, "WriteInt16")
	_, err := i8.ReadUint8()
	expectStatus(t, err, pto.ErrDTypeMismatch, "ReadUint8")
	expectStatus(t, i8.WriteFloat32([]float32{1, 2, 3, 4}), pto.ErrUnsupportedDType, "pto_tile_write_f32")
	_, err = i8.ReadFloat32()
	expectStatus(t, err, pto.ErrUnsupportedDType, "pto_tile_read_f32")
	f := newTile(t, pto.Float32, 2, 2)
	expectStatus(t, f.WriteFloat32([]float32{1}), pto.ErrInvalidArgument, "pto_tile_write_f32")
	expectStatus(t, f.WriteFloat32(nil), pto.ErrInvalidArgument, "pto_tile_write_f32")
}

// ------------------------------------------------------------ operations --

func TestTPowFloat(t *testing.T) {
	for _, algo := range []pto.PowAlgorithm{pto.PowDefault, pto.PowHighPrecision} {
		for _, dtype := range []pto.DType{pto.Float32, pto.Float16, pto.BFloat16} {
			base := f32Tile(t, dtype, 2, 3, 2, 3, -2, 4, 1, 0)
			exp := f32Tile(t, dtype, 2, 3, 10, 2, 3, 0.5, 100, 0)
			dst := newTile(t, dtype, 2, 3)
			tmp := newTile(t, dtype, 2, 3)
			must(t, pto.TPow(dst, base, exp, tmp, algo))
			expectF32(t, "pow "+dtype.String(), readF32(t, dst), []float32{1024, 9, -8, 2, 1, 1})
		}
	}
	// Special cases (C99 Annex F): negative base with a non-integer exponent.
	base := f32Tile(t, pto.Float32, 1, 2, -2, 0)
	exp := f32Tile(t, pto.Float32, 1, 2, 0.5, -1)
	dst := newTile(t, pto.Float32, 1, 2)
	tmp := newTile(t, pto.Float32, 1, 2)
	must(t, pto.TPow(dst, base, exp, tmp, pto.PowHighPrecision))
	expectF32(t, "pow special", readF32(t, dst), []float32{float32(math.NaN()), float32(math.Inf(1))})
}

func TestTCvt(t *testing.T) {
	src := f32Tile(t, pto.Float32, 1, 5, -2.5, -0.5, 1.5, 2.5, 3e9)
	for mode, want := range map[pto.RoundMode][]int32{
		pto.RoundRint:  {-2, 0, 2, 2, math.MaxInt32},
		pto.RoundRound: {-3, -1, 2, 3, math.MaxInt32},
		pto.RoundFloor: {-3, -1, 1, 2, math.MaxInt32},
		pto.RoundCeil:  {-2, 0, 2, 3, math.MaxInt32},
		pto.RoundTrunc: {-2, 0, 1, 2, math.MaxInt32},
	} {
		dst := newTile(t, pto.Int32, 1, 5)
		must(t, pto.TCvt(dst, src, nil, mode, pto.SatOn))
		got, err := dst.ReadInt32()
		must(t, err)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("tcvt mode %d: got %v, want %v", mode, got, want)
			}
		}
	}
	if err := pto.TCvt(newTile(t, pto.BFloat16, 1, 5), src, nil, pto.RoundOdd, pto.SatOn); err == nil ||
		!strings.Contains(err.Error(), "PTO_ROUND_ODD") {
		t.Fatalf("ODD to bfloat16: %v", err)
	}
}

func TestTQuant(t *testing.T) {
	src := f32Tile(t, pto.Float32, 1, 8, 0.5, 1.5, 2.5, -2.5, 200, -200, 3, 0)
	scale := f32Tile(t, pto.Float32, 1, 8, 2, 0, 0, 0, 0, 0, 0, 0)
	offset := f32Tile(t, pto.Float32, 1, 8, 10, 0, 0, 0, 0, 0, 0, 0)
	must(t, scale.SetValid(1, 1))
	must(t, offset.SetValid(1, 1))
	q := newTile(t, pto.Int8, 1, 8)
	must(t, pto.TQuant(q, src, scale, nil, nil)) // INT8_SYM: no offset
	got, err := q.ReadInt8()
	must(t, err)
	if want := []int8{1, 3, 5, -5, 127, -128, 6, 0}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("tquant INT8_SYM: got %v, want %v", got, want)
	}
	u := newTile(t, pto.Uint8, 1, 8)
	must(t, pto.TQuant(u, src, scale, offset, nil))
	gotU, err := u.ReadUint8()
	must(t, err)
	if want := []uint8{11, 13, 15, 5, 255, 0, 16, 10}; fmt.Sprint(gotU) != fmt.Sprint(want) {
		t.Fatalf("tquant INT8_ASYM: got %v, want %v", gotU, want)
	}
	if err := pto.TQuant(u, src, scale, nil, nil); err == nil || !strings.Contains(err.Error(), "INT8_ASYM") {
		t.Fatalf("UINT8 dst without an offset: %v", err)
	}
	x := newTile(t, pto.Float32, 1, 8)
	must(t, pto.TDequant(x, q, scale, offset))
	expectF32(t, "tdequant", readF32(t, x), []float32{-18, -14, -10, -30, 234, -276, -8, -20})
}

func TestTSel(t *testing.T) {
	a := f32Tile(t, pto.Float32, 1, 9, 1, 5, -2, 4, 3, 0, 7, 8, 9)
	b := f32Tile(t, pto.Float32, 1, 9, 2, 4, -1, 0, 3, 0, 0, 9, 8)
	mask := newTile(t, pto.Uint8, 1, 2)
	must(t, pto.TCmp(mask, a, b, pto.CmpGT))
	dst := newTile(t, pto.Float32, 1, 9)
	must(t, pto.TSel(dst, mask, a, b, nil))
	expectF32(t, "tsel(a > b, a, b)", readF32(t, dst), []float32{2, 5, -1, 4, 3, 0, 7, 9, 9})
	must(t, pto.TSel(dst, mask, b, a, nil))
	expectF32(t, "tsel(a > b, b, a)", readF32(t, dst), []float32{1, 4, -2, 0, 3, 0, 0, 8, 8})
	expectStatus(t, pto.TSel(dst, dst, a, b, nil), pto.ErrUnsupportedDType, "mask")
}

func TestTPowIntegers(t *testing.T) {
	{
		base := newTile(t, pto.Int32, 1, 6)
		exp := newTile(t, pto.Int32, 1, 6)
		must(t, base.WriteInt32([]int32{2, 3, -2, 0, 1, -1}))
		must(t, exp.WriteInt32([]int32{10, 4, 3, 0, -5, -3}))
		dst := newTile(t, pto.Int32, 1, 6)
		tmp := newTile(t, pto.Int32, 1, 6)
		must(t, pto.TPow(dst, base, exp, tmp, pto.PowDefault))
		got, err := dst.ReadInt32()
		must(t, err)
		want := []int32{1024, 81, -8, 1, 1, -1}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("int32 pow = %v, want %v", got, want)
			}
		}
	}
	{
		// Wrapping modulo 2^8: 2^7 = -128 in int8, 3^5 = 243 in uint8, 2^9 = 0.
		base := newTile(t, pto.Int8, 1, 2)
		exp := newTile(t, pto.Int8, 1, 2)
		must(t, base.WriteInt8([]int8{2, 2}))
		must(t, exp.WriteInt8([]int8{7, 9}))
		dst := newTile(t, pto.Int8, 1, 2)
		tmp := newTile(t, pto.Int8, 1, 2)
		must(t, pto.TPow(dst, base, exp, tmp, pto.PowDefault))
		got, err := dst.ReadInt8()
		must(t, err)
		if got[0] != -128 || got[1] != 0 {
			t.Fatalf("int8 pow = %v, want [-128 0]", got)
		}
		ub := newTile(t, pto.Uint8, 1, 1)
		ue := newTile(t, pto.Uint8, 1, 1)
		must(t, ub.WriteUint8([]uint8{3}))
		must(t, ue.WriteUint8([]uint8{5}))
		ud := newTile(t, pto.Uint8, 1, 1)
		ut := newTile(t, pto.Uint8, 1, 1)
		must(t, pto.TPow(ud, ub, ue, ut, pto.PowDefault))
		ugot, err := ud.ReadUint8()
		must(t, err)
		if ugot[0] != 243 {
			t.Fatalf("uint8 3^5 = %v", ugot)
		}
	}
	{
		base := newTile(t, pto.Uint16, 1, 1)
		exp := newTile(t, pto.Uint16, 1, 1)
		must(t, base.WriteUint16([]uint16{2}))
		must(t, exp.WriteUint16([]uint16{10}))
		dst := newTile(t, pto.Uint16, 1, 1)
		tmp := newTile(t, pto.Uint16, 1, 1)
		must(t, pto.TPow(dst, base, exp, tmp, pto.PowDefault))
		got, err := dst.ReadUint16()
		must(t, err)
		if got[0] != 1024 {
			t.Fatalf("uint16 2^10 = %v", got)
		}
	}
}

func TestTPowErrors(t *testing.T) {
	f := func(rows, cols int) *pto.Tile { return newTile(t, pto.Float32, rows, cols) }
	dst, base, exp, tmp := f(2, 2), f(2, 2), f(2, 2), f(2, 2)
	expectStatus(t, pto.TPow(dst, base, exp, nil, pto.PowDefault), pto.ErrNullArgument, "pto_tpow")
	expectStatus(t, pto.TPow(nil, base, exp, tmp, pto.PowDefault), pto.ErrNullArgument, "pto_tpow")
	expectStatus(t, pto.TPow(dst, base, exp, tmp, pto.PowAlgorithm(7)), pto.ErrInvalidArgument, "pto_tpow")
	expectStatus(t, pto.TPow(dst, base, exp, dst, pto.PowDefault), pto.ErrAliasing, "pto_tpow")
	expectStatus(t, pto.TPow(dst, base, newTile(t, pto.Float16, 2, 2), tmp, pto.PowDefault),
		pto.ErrDTypeMismatch, "pto_tpow")
	expectStatus(t, pto.TPow(dst, f(1, 2), exp, tmp, pto.PowDefault), pto.ErrShapeMismatch, "pto_tpow")
	i := func() *pto.Tile { return newTile(t, pto.Int32, 2, 2) }
	expectStatus(t, pto.TPow(i(), i(), i(), i(), pto.PowHighPrecision), pto.ErrUnsupportedDType, "pto_tpow")
}

func TestTRsqrt(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, dtype := range []pto.DType{pto.Float32, pto.Float16} {
		src := f32Tile(t, dtype, 2, 3, 4, 0.25, 0, float32(math.Copysign(0, -1)), -1, inf)
		dst := newTile(t, dtype, 2, 3)
		must(t, pto.TRsqrt(dst, src))
		expectF32(t, "rsqrt "+dtype.String(), readF32(t, dst), []float32{0.5, 2, inf, -inf, float32(math.NaN()), 0})
		// In place.
		must(t, pto.TRsqrt(src, src))
		expectF32(t, "rsqrt in place", readF32(t, src)[:2], []float32{0.5, 2})
	}
	expectStatus(t, pto.TRsqrt(newTile(t, pto.BFloat16, 1, 1), newTile(t, pto.BFloat16, 1, 1)),
		pto.ErrUnsupportedDType, "pto_trsqrt")
	expectStatus(t, pto.TRsqrt(newTile(t, pto.Float32, 1, 1), newTile(t, pto.Float16, 1, 1)),
		pto.ErrDTypeMismatch, "pto_trsqrt")
	expectStatus(t, pto.TRsqrt(newTile(t, pto.Float32, 2, 2), newTile(t, pto.Float32, 2, 1)),
		pto.ErrShapeMismatch, "pto_trsqrt")
	expectStatus(t, pto.TRsqrt(newTile(t, pto.Float32, 2, 2), nil), pto.ErrNullArgument, "pto_trsqrt")
}

func TestTPrelu(t *testing.T) {
	src0 := f32Tile(t, pto.Float32, 1, 4, 2, -3, 0, -0.5)
	src1 := f32Tile(t, pto.Float32, 1, 4, 10, 0.5, 7, -2)
	dst := newTile(t, pto.Float32, 1, 4)
	must(t, pto.TPrelu(dst, src0, src1, nil))
	expectF32(t, "prelu", readF32(t, dst), []float32{2, -1.5, 0, 1})
	tmp := newTile(t, pto.Float32, 1, 4)
	must(t, pto.TPrelu(dst, src0, src1, tmp))
	expectF32(t, "prelu with tmp", readF32(t, dst), []float32{2, -1.5, 0, 1})

	// Integers wrap: -100 * 2 = -200 wraps to 56 in int8.
	a := newTile(t, pto.Int8, 1, 3)
	b := newTile(t, pto.Int8, 1, 3)
	must(t, a.WriteInt8([]int8{5, -3, -100}))
	must(t, b.WriteInt8([]int8{9, 4, 2}))
	must(t, pto.TPrelu(a, a, b, nil)) // in place
	got, err := a.ReadInt8()
	must(t, err)
	if got[0] != 5 || got[1] != -12 || got[2] != 56 {
		t.Fatalf("int8 prelu = %v", got)
	}
	// Unsigned: nothing is negative, dst = src0.
	u := newTile(t, pto.Uint32, 1, 2)
	must(t, u.WriteUint32([]uint32{0, 7}))
	ud := newTile(t, pto.Uint32, 1, 2)
	must(t, pto.TPrelu(ud, u, u, nil))
	ugot, err := ud.ReadUint32()
	must(t, err)
	if ugot[0] != 0 || ugot[1] != 7 {
		t.Fatalf("uint32 prelu = %v", ugot)
	}

	expectStatus(t, pto.TPrelu(dst, src0, src1, src0), pto.ErrAliasing, "pto_tprelu")
	expectStatus(t, pto.TPrelu(dst, src0, newTile(t, pto.Int32, 1, 4), nil), pto.ErrDTypeMismatch, "pto_tprelu")
	expectStatus(t, pto.TPrelu(dst, src0, f32Tile(t, pto.Float32, 1, 3), nil), pto.ErrShapeMismatch, "pto_tprelu")
	expectStatus(t, pto.TPrelu(dst, nil, src1, nil), pto.ErrNullArgument, "pto_tprelu")
}

func TestTColExpandDiv(t *testing.T) {
	for _, dtype := range []pto.DType{pto.Float32, pto.Float16} {
		src0 := f32Tile(t, dtype, 2, 3, 2, 9, 1, 4, -3, 0)
		src1 := f32Tile(t, dtype, 2, 3, 2, 3, 0, 100, 100, 100)
		dst := newTile(t, dtype, 2, 3)
		must(t, pto.TColExpandDiv(dst, src0, src1))
		inf := float32(math.Inf(1))
		expectF32(t, "colexpanddiv "+dtype.String(), readF32(t, dst),
			[]float32{1, 3, inf, 2, -1, float32(math.NaN())})
	}
	// dst == src1: every row is divided by the original row 0.
	s := f32Tile(t, pto.Float32, 2, 2, 2, 4, 8, 16)
	must(t, pto.TColExpandDiv(s, s, s))
	expectF32(t, "colexpanddiv in place", readF32(t, s), []float32{1, 1, 4, 4})

	// src1 needs only one valid row covering dst's valid columns.
	src0 := f32Tile(t, pto.Float32, 2, 2, 2, 4, 6, 8)
	row := f32Tile(t, pto.Float32, 1, 2, 2, 4)
	dst := newTile(t, pto.Float32, 2, 2)
	must(t, pto.TColExpandDiv(dst, src0, row))
	expectF32(t, "colexpanddiv row", readF32(t, dst), []float32{1, 1, 3, 2})
	must(t, row.SetValid(1, 1))
	expectStatus(t, pto.TColExpandDiv(dst, src0, row), pto.ErrShapeMismatch, "pto_tcolexpanddiv")
	i := newTile(t, pto.Int8, 2, 2)
	expectStatus(t, pto.TColExpandDiv(i, i, i), pto.ErrUnsupportedDType, "pto_tcolexpanddiv")
}

func TestTPartAdd(t *testing.T) {
	src0 := f32Tile(t, pto.Float32, 2, 3, 1, 2, 3, 4, 5, 6)
	src1 := f32Tile(t, pto.Float32, 2, 3, 10, 20, 30, 40, 50, 60)
	dst := f32Tile(t, pto.Float32, 2, 3, -1, -1, -1, -1, -1, -1)
	must(t, src1.SetValid(1, 2))
	must(t, pto.TPartAdd(dst, src0, src1))
	expectF32(t, "partadd", readF32(t, dst), []float32{11, 22, 3, 4, 5, 6})

	// Valid regions limit what is written: dst 1x3 leaves row 1 alone.
	must(t, dst.WriteFloat32([]float32{-1, -1, -1, -1, -1, -1}))
	must(t, dst.SetValid(1, 3))
	must(t, src0.SetValid(1, 3))
	must(t, pto.TPartAdd(dst, src1, src0)) // src1 1x2, src0 == dst's 1x3
	expectF32(t, "partadd partial", readF32(t, dst), []float32{11, 22, 3, -1, -1, -1})

	// Integers wrap.
	a := newTile(t, pto.Uint16, 1, 2)
	must(t, a.WriteUint16([]uint16{65535, 1}))
	must(t, pto.TPartAdd(a, a, a))
	got, err := a.ReadUint16()
	must(t, err)
	if got[0] != 65534 || got[1] != 2 {
		t.Fatalf("uint16 partadd = %v", got)
	}

	// Neither source's valid region equals dst's.
	d := newTile(t, pto.Float32, 2, 2)
	x := newTile(t, pto.Float32, 2, 2)
	y := newTile(t, pto.Float32, 2, 2)
	must(t, x.SetValid(1, 2))
	must(t, y.SetValid(2, 1))
	expectStatus(t, pto.TPartAdd(d, x, y), pto.ErrShapeMismatch, "pto_tpartadd")
	expectStatus(t, pto.TPartAdd(d, x, newTile(t, pto.Int8, 2, 2)), pto.ErrDTypeMismatch, "pto_tpartadd")
}

// pto_last_error is thread-local in C: errors raised from many goroutines at
// once must each carry their own call's message.
func TestErrorsFromManyGoroutines(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			dst, _ := pto.NewTile(pto.Float32, 2, 2)
			defer dst.Close()
			other, _ := pto.NewTile(pto.Float32, 2, 2)
			defer other.Close()
			bad, _ := pto.NewTile(pto.Int16, 2, 2)
			defer bad.Close()
			for i := 0; i < 200; i++ {
				var err error
				var op string
				if (i+g)%2 == 0 {
					err, op = pto.TRsqrt(dst, bad), "pto_trsqrt"
				} else {
					err, op = pto.TPartAdd(dst, other, bad), "pto_tpartadd"
				}
				var perr *pto.Error
				if !errors.As(err, &perr) || !strings.Contains(perr.Message, op) {
					t.Errorf("goroutine %d: %v does not name %s", g, err, op)
					return
				}
				runtime.Gosched()
			}
		}(g)
	}
	wg.Wait()
}

func TestDataMovementIndexed(t *testing.T) {
	src := f32Tile(t, pto.Float32, 3, 4, 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23)
	dst := newTile(t, pto.Float32, 2, 2)
	must(t, pto.TExtract(dst, src, 1, 2))
	expectF32(t, "TExtract", readF32(t, dst), []float32{12, 13, 22, 23})
	expectStatus(t, pto.TExtract(dst, src, 2, 0), pto.ErrOutOfRange, "window")

	idx := newTile(t, pto.Int32, 1, 4)
	must(t, idx.WriteInt32([]int32{11, 0, 5, 5}))
	g := newTile(t, pto.Float32, 1, 4)
	must(t, pto.TGather(g, src, idx, nil))
	expectF32(t, "TGather", readF32(t, g), []float32{23, 0, 11, 11})
	must(t, idx.WriteInt32([]int32{-1, 0, 0, 0}))
	expectStatus(t, pto.TGather(g, src, idx, nil), pto.ErrOutOfRange, "is -1")
	// two sorted lists of (value, index) pairs, merged; with exhausted the
	// merge stops when list 1 (one pair) is used up
	l0 := newTile(t, pto.Float32, 1, 4)
	must(t, l0.WriteFloat32([]float32{9, 0, 5, 0}))
	l1 := newTile(t, pto.Float32, 1, 2)
	must(t, l1.WriteFloat32([]float32{7, 0}))
	merged := newTile(t, pto.Float32, 1, 6)
	counts, err := pto.TMrgSortLists(merged, l0, l1, nil, nil, nil, true)
	must(t, err)
	if counts != [4]uint16{1, 1, 0, 0} {
		t.Errorf("TMrgSortLists counts %v", counts)
	}
	expectF32(t, "TMrgSortLists", readF32(t, merged)[:4], []float32{9, 0, 7, 0})
	// the mask-pattern form: columns 1 and 3 of each row, packed; row 1 along GatherCol
	m := newTile(t, pto.Float32, 3, 2)
	must(t, pto.TGatherMask(m, src, pto.MaskP1010, pto.GatherRow))
	expectF32(t, "TGatherMask", readF32(t, m), []float32{1, 3, 11, 13, 21, 23})
	r := newTile(t, pto.Float32, 1, 4)
	must(t, pto.TGatherMask(r, src, pto.MaskP1010, pto.GatherCol))
	expectF32(t, "TGatherMask col", readF32(t, r), []float32{10, 11, 12, 13})
	expectStatus(t, pto.TGatherMask(m, src, pto.MaskP1111, pto.GatherRow), pto.ErrShapeMismatch, "12 elements")

	h := newTile(t, pto.Float16, 2, 3)
	must(t, pto.TSetVal(h, 4, 1.0/3.0))
	v, err := pto.TGetVal(h, 4)
	must(t, err)
	if v != 0.333251953125 {
		t.Errorf("TGetVal = %v, want FLOAT16's nearest to 1/3, 0.333251953125", v)
	}
	_, err = pto.TGetVal(h, 6)
	expectStatus(t, err, pto.ErrOutOfRange, "index 6")

	// TRandom: Random123's philox4x32_10 known answer (counter 0, key 0)
	rnd := newTile(t, pto.Uint32, 1, 8)
	must(t, pto.TRandom(rnd, [2]uint32{0, 0}, [4]uint32{0, 0, 0, 0}, 10))
	words, err := rnd.ReadUint32()
	must(t, err)
	for i, want := range []uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8} {
		if words[i] != want {
			t.Errorf("TRandom word %d = %#x, want %#x", i, words[i], want)
		}
	}
	expectStatus(t, pto.TRandom(rnd, [2]uint32{}, [4]uint32{}, 8), pto.ErrInvalidArgument, "rounds")

	// TImg2col: a 2x2 map of one channel under a 2x2 filter is one row of
	// its four pixels; a window past the matrix is the pad element.
	fmap := newTile(t, pto.Uint32, 4, 1)
	must(t, fmap.WriteUint32([]uint32{1, 2, 3, 4}))
	col := newTile(t, pto.Uint32, 2, 4)
	cfg := pto.Img2colConfig{FmapH: 2, FmapW: 2, PadBits: 9, RepeatTime: 1, StrideH: 1, StrideW: 1,
		DilationH: 1, DilationW: 1, FilterH: 2, FilterW: 2, ChannelSize: 1}
	must(t, pto.TImg2col(col, fmap, cfg, 0, 0))
	cols, err := col.ReadUint32()
	must(t, err)
	for i, want := range []uint32{1, 2, 3, 4, 9, 9, 9, 9} {
		if cols[i] != want {
			t.Errorf("TImg2col element %d = %d, want %d", i, cols[i], want)
		}
	}
	cfg.StrideW = 0
	expectStatus(t, pto.TImg2col(col, fmap, cfg, 0, 0), pto.ErrInvalidArgument, "strides 1x0")
	// The registers' settings (src/settings.def): each field's range checked
	// by the C call, the field named; a refusal keeps the register.
	cfg.StrideW = 1
	func() {
		runtime.LockOSThread() // the registers belong to the OS thread
		defer runtime.UnlockOSThread()
		must(t, pto.Setfmatrix(cfg))
		must(t, pto.SetImg2colRpt(cfg))
		bad := cfg
		bad.FmapH = 0
		expectStatus(t, pto.Setfmatrix(bad), pto.ErrInvalidArgument, "config's fmap_h 0 is outside")
		bad = cfg
		bad.RepeatMode = 2
		expectStatus(t, pto.SetImg2colRpt(bad), pto.ErrInvalidArgument, "repeat_mode 2")
		cfg.PadBits = 7
		must(t, pto.SetImg2colPadding(cfg))
	}()
}
