package pto_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/libpto/pto-go"
)

// The functions bound by hand beyond the rows of src/operations.def: the
// cube modes changing a Float32 matrix multiply's bits on their profile,
// the fixpipe's thread configuration read by TMovFp, TQuantMX against
// values worked by hand, MGather and MScatter over Go slices; each refusal
// with libpto's sentence and nothing written; the settings per OS thread.

// onePlus is 1 + 2^-20: 1.0 in TF32 (e8m10) and HF32 (e8m11).
var onePlus = float32(1 + math.Pow(2, -20))

// cubeMatmul is a @ b on profile's cube tiles, a all onePlus and b's row 0
// all 1, so that without a mode c's elements are a's exactly.
func cubeMatmul(t *testing.T, profile pto.Profile, left pto.Layout) []float32 {
	const m, k, n = 16, 32, 16
	av := make([]float32, m*k)
	bv := make([]float32, k*n)
	for i := range av {
		av[i] = onePlus
	}
	for j := 0; j < n; j++ {
		bv[j] = 1
	}
	a := newCubeTile(t, pto.Float32, m, k, pto.LocLeft, left)
	b := newCubeTile(t, pto.Float32, k, n, pto.LocRight, pto.LayoutZN)
	c := newCubeTile(t, pto.Float32, m, n, pto.LocAcc, pto.LayoutNZ)
	must(t, a.WriteFloat32(av))
	must(t, b.WriteFloat32(bv))
	must(t, pto.WithProfile(profile, func() error { return pto.TMatmul(c, a, b) }))
	return readF32(t, c)
}

func allEqual(values []float32, want float32) bool {
	for _, v := range values {
		if v != want {
			return false
		}
	}
	return true
}

func TestCubeModes(t *testing.T) {
	runtime.LockOSThread() // the modes belong to the OS thread
	defer runtime.UnlockOSThread()
	if on, round := pto.TF32Mode(); on || round != pto.RoundRound {
		t.Fatalf("TF32Mode() = %v, %v on a fresh thread", on, round)
	}
	if !allEqual(cubeMatmul(t, pto.ProfileA5, pto.LayoutNZ), onePlus) {
		t.Fatal("A5 without the TF32 mode rounded its inputs")
	}
	must(t, pto.SetTF32Mode(true, pto.RoundRint))
	if on, round := pto.TF32Mode(); !on || round != pto.RoundRint {
		t.Fatalf("TF32Mode() = %v, %v after SetTF32Mode(true, RoundRint)", on, round)
	}
	if !allEqual(cubeMatmul(t, pto.ProfileA5, pto.LayoutNZ), 1) {
		t.Error("A5 with the TF32 mode kept 1 + 2^-20")
	}
	// Another OS thread keeps its own (off) mode.
	other := make(chan bool)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		on, _ := pto.TF32Mode()
		other <- on
	}()
	if <-other {
		t.Error("a fresh thread sees the TF32 mode on")
	}
	expectStatus(t, pto.SetTF32Mode(false, pto.RoundFloor), pto.ErrInvalidArgument, "pto_set_tf32_mode: round mode 3")
	if on, round := pto.TF32Mode(); !on || round != pto.RoundRint {
		t.Errorf("the refusal changed the mode: %v, %v", on, round)
	}
	must(t, pto.SetTF32Mode(false, pto.RoundRound))
	if !allEqual(cubeMatmul(t, pto.ProfileA5, pto.LayoutNZ), onePlus) {
		t.Error("A5 with the TF32 mode off again rounded its inputs")
	}
	// HF32 under A2A3, scoped.
	err := pto.WithHF32Mode(pto.RoundRound, func() error {
		if !allEqual(cubeMatmul(t, pto.ProfileA2A3, pto.LayoutZZ), 1) {
			t.Error("A2A3 with the HF32 mode kept 1 + 2^-20")
		}
		return nil
	})
	must(t, err)
	if on, _ := pto.HF32Mode(); on {
		t.Error("WithHF32Mode left the mode on")
	}
	expectStatus(t, pto.WithHF32Mode(pto.RoundCeil, func() error { return nil }), pto.ErrInvalidArgument,
		"pto_set_hf32_mode")
}

func TestQuantConfiguration(t *testing.T) {
	runtime.LockOSThread() // the configuration belongs to the OS thread
	defer runtime.UnlockOSThread()
	values := make([]float32, 16*32)
	copy(values, []float32{3, 5, -7, 300, -300, 1.25})
	acc := newCubeTile(t, pto.Float32, 16, 32, pto.LocAcc, pto.LayoutNZ)
	must(t, acc.WriteFloat32(values))
	q := newTile(t, pto.Int8, 16, 32)
	// x * 0.5, to nearest even, clamped to int8.
	must(t, pto.SetQuantScalar(0.5, pto.Int8))
	must(t, pto.TMovFp(q, acc, nil))
	got, err := q.ReadInt8()
	must(t, err)
	for i, want := range []int8{2, 2, -4, 127, -128, 1, 0} {
		if got[i] != want {
			t.Errorf("scalar 0.5: element %d is %d, want %d", i, got[i], want)
		}
	}
	// The same with the fixpipe's relu: the negative products give 0.
	must(t, pto.TMovFpEx(q, acc, nil, pto.FixpipeRelu))
	got, _ = q.ReadInt8()
	for i, want := range []int8{2, 2, 0, 127, 0, 1, 0} {
		if got[i] != want {
			t.Errorf("scalar 0.5, relu: element %d is %d, want %d", i, got[i], want)
		}
	}
	expectStatus(t, pto.TMovFpEx(q, acc, nil, 8), pto.ErrInvalidArgument, "pto_tmov_fp_ex")
	expectStatus(t, pto.SetQuantScalar(1, pto.Float32), pto.ErrUnsupportedDType, "pto_set_quant_scalar")
	// A vector configuration, copied when set.
	fp := newCubeTile(t, pto.Float32, 1, 32, pto.LocScaling, pto.LayoutND)
	words := make([]float32, 32)
	copy(words, []float32{0.25, 0.5, 1, 2})
	must(t, fp.WriteFloat32(words))
	must(t, pto.SetQuantVector(fp))
	must(t, fp.WriteFloat32(make([]float32, 32)))
	must(t, pto.TMovFp(q, acc, nil))
	got, _ = q.ReadInt8()
	for i, want := range []int8{1, 2, -7, 127} { // 0.75, 2.5, -7, 600
		if got[i] != want {
			t.Errorf("vector: element %d is %d, want %d", i, got[i], want)
		}
	}
	expectStatus(t, pto.SetQuantVector(newTile(t, pto.Float32, 1, 32)), pto.ErrInvalidArgument, "pto_set_quant_vector")
	expectStatus(t, pto.SetQuantVector(nil), pto.ErrNullArgument, "pto_set_quant_vector")
	// A fresh OS thread has no configuration.
	fresh := make(chan error)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		fresh <- pto.TMovFp(q, acc, nil)
	}()
	expectStatus(t, <-fresh, pto.ErrInvalidArgument, "pto_tmov_fp")
}

func TestTQuantMX(t *testing.T) {
	// One block: max 3 has biased exponent 128, so E8M0 120 (OCP: less 8),
	// the scale 2^7; 3 -> 1.5 * 2^8 (E4M3 0x7C), 1 -> 0x70, 2 -> 0x78,
	// -0.5 -> -2^6 (0xE8), 0 -> 0.
	src := f32Tile(t, pto.Float32, 1, 32, append([]float32{3, 1, 2, -0.5}, make([]float32, 28)...)...)
	dst, exp := newTile(t, pto.Uint8, 1, 32), newTile(t, pto.Uint8, 1, 1)
	mx, sc := newTile(t, pto.Float32, 1, 1), newTile(t, pto.Float32, 1, 1)
	must(t, pto.TQuantMX(dst, src, exp, mx, sc, pto.MxOcpFp8E4M3, 1))
	codes, _ := dst.ReadUint8()
	for i, want := range []uint8{0x7C, 0x70, 0x78, 0xE8, 0} {
		if codes[i] != want {
			t.Errorf("code %d is %#x, want %#x", i, codes[i], want)
		}
	}
	e, _ := exp.ReadUint8()
	if e[0] != 120 || readF32(t, mx)[0] != 3 || readF32(t, sc)[0] != 128 {
		t.Errorf("exp %d, max %v, scaling %v; want 120, 3, 128", e[0], readF32(t, mx)[0], readF32(t, sc)[0])
	}
	must(t, pto.TQuantMX(dst, src, exp, nil, nil, pto.MxNvFp8E4M3, 1)) // 3/448: exponent 119, rounded up
	if e, _ := exp.ReadUint8(); e[0] != 120 {
		t.Errorf("NV exp %d, want 120", e[0])
	}
	err := pto.WithProfile(pto.ProfileA2A3, func() error { return pto.TQuantMX(dst, src, exp, nil, nil, pto.MxOcpFp8E4M3, 1) })
	expectStatus(t, err, pto.ErrUnsupportedDType, "pto_tquant_mx")
	expectStatus(t, pto.TQuantMX(dst, src, nil, nil, nil, pto.MxOcpFp8E4M3, 1), pto.ErrNullArgument, "pto_tquant_mx")
	expectStatus(t, pto.TQuantMX(dst, src, exp, nil, nil, pto.MxOcpFp8E4M3, 2), pto.ErrInvalidArgument, "pto_tquant_mx")
	if codes, _ := dst.ReadUint8(); codes[0] != 0x7C {
		t.Errorf("a refusal wrote dst: %#x", codes[0])
	}
}

func TestMGatherMScatter(t *testing.T) {
	table := make([]int32, 16)
	for i := range table {
		table[i] = int32(10 * i)
	}
	dst := newTile(t, pto.Int32, 1, 4)
	idx := newTile(t, pto.Int32, 1, 4)
	must(t, idx.WriteInt32([]int32{3, 0, 15, 7}))
	must(t, pto.MGather(dst, table, idx, pto.CoalesceElem))
	got, _ := dst.ReadInt32()
	for i, want := range []int32{30, 0, 150, 70} {
		if got[i] != want {
			t.Errorf("gathered %d is %d, want %d", i, got[i], want)
		}
	}
	// Rows 2 and 0 of a 4 x 4 table.
	rows, ri := newTile(t, pto.Int32, 2, 4), newTile(t, pto.Int32, 2, 1)
	must(t, ri.WriteInt32([]int32{2, 0}))
	must(t, pto.MGather(rows, table, ri, pto.CoalesceRow))
	if r, _ := rows.ReadInt32(); r[0] != 80 || r[3] != 110 || r[4] != 0 || r[7] != 30 {
		t.Errorf("rows gathered: %v", r)
	}
	// An index past the table: refused, naming it; nothing written.
	must(t, idx.WriteInt32([]int32{3, 0, 16, 7}))
	fresh := newTile(t, pto.Int32, 1, 4)
	expectStatus(t, pto.MGather(fresh, table, idx, pto.CoalesceElem), pto.ErrOutOfRange, "pto_mgather: indices (0, 2) is 16")
	if g, _ := fresh.ReadInt32(); g[0] != 0 {
		t.Error("a refused gather wrote dst")
	}
	out := make([]int32, 8)
	src := newTile(t, pto.Int32, 1, 4)
	must(t, src.WriteInt32([]int32{1, 2, 3, 4}))
	expectStatus(t, pto.MScatter(out, src, idx, pto.CoalesceElem), pto.ErrOutOfRange, "pto_mscatter")
	for _, v := range out {
		if v != 0 {
			t.Fatal("a refused scatter wrote the table")
		}
	}
	must(t, idx.WriteInt32([]int32{0, 5, 5, 2}))
	must(t, pto.MScatter(out, src, idx, pto.CoalesceElem)) // the last writer of 5 wins
	for i, want := range []int32{1, 0, 4, 0, 0, 3, 0, 0} {
		if out[i] != want {
			t.Errorf("scattered %d is %d, want %d", i, out[i], want)
		}
	}
	// A table of another type, an empty table.
	f := newTile(t, pto.Float32, 1, 4)
	expectStatus(t, pto.MGather(f, table, idx, pto.CoalesceElem), pto.ErrDTypeMismatch, "pto_mgather")
	expectStatus(t, pto.MGather(dst, []int32{}, idx, pto.CoalesceElem), pto.ErrNullArgument, "pto_mgather: table")
	// Float16 and BFloat16 tables as uint16 bits.
	bf := newTile(t, pto.BFloat16, 1, 4)
	must(t, idx.WriteInt32([]int32{1, 0, 1, 0}))
	must(t, pto.MGather(bf, []uint16{0x3F80, 0x4000}, idx, pto.CoalesceElem))
	if b, _ := bf.ReadFloat32(); b[0] != 2 || b[1] != 1 {
		t.Errorf("bfloat16 gathered %v", b)
	}
}

func TestHif4(t *testing.T) {
	// One group: 7 gives Ea 0xC0 (7/7 = 1) with Eb and Ec set in the first
	// 8 and 4 (7 -> 1.75, 1 -> 0.25); -0.5 and 0.30078125 keep scale 1.
	values := make([]float32, 64)
	values[0], values[1], values[8], values[9] = 7, 1, -0.5, 0.30078125
	src := f32Tile(t, pto.BFloat16, 1, 64, values...)
	dst, exp := newTile(t, pto.Float4E1M2X2, 1, 32), newTile(t, pto.Uint32, 1, 1)
	must(t, pto.TQuantHif4(dst, src, exp, nil, nil))
	if w, _ := exp.ReadUint32(); w[0] != 0x101C0 {
		t.Errorf("metadata word %#x, want 0x101c0", w[0])
	}
	// b: 64 x 2 codes, all 1.0 (code 4) in column 0, 0 in column 1; its
	// words Ea 0xC0 (e6m2 1.0), no Eb, Ec. dst = sum over k of a(0,k).
	bv := make([]float32, 128)
	for k := 0; k < 64; k++ {
		bv[2*k] = 1
	}
	b, bs := newTile(t, pto.Float4E1M2X2, 64, 1), newTile(t, pto.Uint32, 1, 2)
	must(t, pto.TCvt(b, f32Tile(t, pto.BFloat16, 64, 2, bv...), nil, pto.RoundRint, pto.SatOff))
	must(t, bs.WriteUint32([]uint32{0xC0, 0xC0}))
	out := newTile(t, pto.Float32, 1, 2)
	must(t, pto.TMatmulMXHif4(out, dst, exp, b, bs))
	if got := readF32(t, out); got[0] != 7+1-0.5+0.25 || got[1] != 0 {
		t.Errorf("a b = %v, want [7.75 0]", got)
	}
	err := pto.WithProfile(pto.ProfileA5, func() error { return pto.TQuantHif4(dst, src, exp, nil, nil) })
	expectStatus(t, err, pto.ErrUnsupportedDType, "pto_tquant_hif4")
	expectStatus(t, pto.TMatmulMXHif4(out, dst, nil, b, bs), pto.ErrNullArgument, "pto_tmatmul_mx_hif4")
}

func TestMGatherOOBMScatterEx(t *testing.T) {
	table := []int32{10, 11, 12, 13, 14, 15}
	dst := newTile(t, pto.Int32, 1, 4)
	idx := newTile(t, pto.Int32, 1, 4)
	must(t, idx.WriteInt32([]int32{5, 6, 13, -1}))
	must(t, pto.MGatherOOB(dst, table, idx, pto.CoalesceElem, pto.GatherOobWrap))
	got, _ := dst.ReadInt32()
	for i, want := range []int32{15, 10, 11, 13} { // 4294967295 % 6 = 3
		if got[i] != want {
			t.Errorf("wrapped %d is %d, want %d", i, got[i], want)
		}
	}
	must(t, pto.MGatherOOB(dst, table, idx, pto.CoalesceElem, pto.GatherOobZero))
	if g, _ := dst.ReadInt32(); g[0] != 15 || g[1] != 0 || g[3] != 0 {
		t.Errorf("zeroed %v", g)
	}
	expectStatus(t, pto.MGatherOOB(dst, table, idx, pto.CoalesceElem, pto.GatherOob(4)), pto.ErrInvalidArgument, "pto_mgather_oob: oob")
	src := newTile(t, pto.Int32, 1, 4)
	must(t, src.WriteInt32([]int32{1, 2, 3, 4}))
	must(t, pto.MScatterEx(table, src, idx, pto.CoalesceElem, pto.ScatterAtomicAdd, pto.ScatterOobClamp))
	if table[5] != 25 || table[0] != 10 {
		t.Errorf("clamped adds: %v", table)
	}
	expectStatus(t, pto.MScatterEx(table, src, idx, pto.CoalesceElem, pto.ScatterAtomic(7), pto.ScatterOobSkip), pto.ErrInvalidArgument, "pto_mscatter_ex: atomic")
	u := newTile(t, pto.Uint8, 1, 4)
	expectStatus(t, pto.MScatterEx(make([]uint8, 8), u, idx, pto.CoalesceElem, pto.ScatterAtomicMax, pto.ScatterOobSkip), pto.ErrUnsupportedDType, "pto_mscatter_ex: atomic max")
}
