package pto_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libpto/pto-go"
)

const preluDPS = `pto.tprelu ins(%src0, %src1 : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%dst : !pto.tile_buf<vec, 16x16xf32>)`

const powSSA = `%dst = pto.tpow %base, %exp : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>`

// preluKernel is examples/pto/prelu-rows.pto, the kernel that the Go, Java
// and Rust tests share (go test runs in the package's directory).
var preluKernel = readExample("prelu-rows.pto")

func readExample(name string) string {
	text, err := os.ReadFile(filepath.Join("..", "..", "examples", "pto", name))
	if err != nil {
		panic(err)
	}
	return string(text)
}

// values returns n deterministic floats in [-lo, hi), some negative.
func values(n int, seed uint32, lo, hi float32) []float32 {
	out := make([]float32, n)
	x := seed
	for i := range out {
		x = x*1664525 + 1013904223
		out[i] = -lo + (lo+hi)*float32(x>>8)/float32(1<<24)
	}
	return out
}

func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %v (%#x), want %v (%#x)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

func newProgram(t *testing.T, text string, opts ...pto.ProgramOption) *pto.Program {
	t.Helper()
	p, err := pto.NewProgram(text, opts...)
	if err != nil {
		t.Fatalf("NewProgram: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestProgramDPSMatchesTPrelu(t *testing.T) {
	p := newProgram(t, preluDPS, pto.SourceName("prelu.pto"))
	if p.Name() != "prelu.pto" || p.Profile() != pto.ProfileHost {
		t.Errorf("Name %q Profile %v", p.Name(), p.Profile())
	}
	params := p.Params()
	if len(params) != 3 {
		t.Fatalf("params %+v", params)
	}
	byName := map[string]pto.Param{}
	for _, prm := range params {
		byName[prm.Name] = prm
		if prm.Kind != pto.ParamTile || prm.DType != pto.Float32 || prm.Rows != 16 || prm.Cols != 16 {
			t.Errorf("param %+v", prm)
		}
	}
	if !byName["src0"].Reads() || byName["src0"].Writes() || !byName["dst"].Writes() {
		t.Errorf("access: %+v", params)
	}
	if i, err := p.Find("%dst"); err != nil || params[i].Name != "dst" {
		t.Errorf("Find(%%dst) = %d, %v", i, err)
	}

	src0 := f32Tile(t, pto.Float32, 16, 16, values(256, 1, 4, 4)...)
	src1 := f32Tile(t, pto.Float32, 16, 16, values(256, 2, 1, 1)...)
	want := newTile(t, pto.Float32, 16, 16)
	must(t, pto.TPrelu(want, src0, src1, nil))

	// The caller's own dst, by name; the sources by name and position.
	dst := newTile(t, pto.Float32, 16, 16)
	i1, err := p.Find("src1")
	must(t, err)
	res, err := p.Run(pto.Named("src0", src0), pto.At(i1, src1), pto.Named("dst", dst))
	must(t, err)
	if len(res) != 0 {
		t.Errorf("results for a bound dst: %v", res)
	}
	sameBits(t, "dst", readF32(t, dst), readF32(t, want))

	// dst left unbound: Run creates it and returns it.
	res, err = p.Run(pto.Named("src0", src0), pto.Named("src1", src1))
	must(t, err)
	defer res.Close()
	got := res["dst"]
	if got == nil || got.Rows() != 16 || got.Cols() != 16 || got.DType() != pto.Float32 {
		t.Fatalf("results %v", res)
	}
	sameBits(t, "created dst", readF32(t, got), readF32(t, want))
}

func TestProgramSSAMatchesTPow(t *testing.T) {
	p := newProgram(t, powSSA)
	base := f32Tile(t, pto.Float32, 16, 16, values(256, 3, 0, 8)...)
	exp := f32Tile(t, pto.Float32, 16, 16, values(256, 4, 3, 3)...)
	tmp := newTile(t, pto.Float32, 16, 16)
	want := newTile(t, pto.Float32, 16, 16)
	must(t, pto.TPow(want, base, exp, tmp, pto.PowDefault))

	res, err := p.Run(pto.Named("base", base), pto.Named("exp", exp))
	must(t, err)
	defer res.Close()
	if len(res) != 1 || res["dst"] == nil {
		t.Fatalf("results %v", res)
	}
	sameBits(t, "dst", readF32(t, res["dst"]), readF32(t, want))
}

func TestProgramKernelOneAndThreeBlocks(t *testing.T) {
	p := newProgram(t, preluKernel, pto.SourceName("prelu_rows.pto"))
	kinds := []pto.ParamKind{pto.ParamPointer, pto.ParamPointer, pto.ParamPointer, pto.ParamInt}
	for i, prm := range p.Params() {
		if prm.Kind != kinds[i] {
			t.Errorf("param %d %+v", i, prm)
		}
	}
	if prm := p.Params()[2]; prm.Name != "y" || !prm.Writes() || prm.Reads() || prm.DType != pto.Float32 {
		t.Errorf("y: %+v", prm)
	}
	const n = 7
	x := values(n*64, 5, 3, 3)
	s := values(n*64, 6, 1, 1)
	y1 := make([]float32, n*64)
	y3 := make([]float32, n*64)
	res, err := p.Run(pto.Named("x", x), pto.Named("s", s), pto.Named("y", y1), pto.Named("n", n))
	must(t, err)
	if len(res) != 0 {
		t.Errorf("a kernel returned tiles: %v", res)
	}
	_, err = p.Launch(3, pto.At(0, x), pto.At(1, s), pto.At(2, y3), pto.At(3, int64(n)))
	must(t, err)
	sameBits(t, "3 blocks", y3, y1)

	// The same computation through the direct call, 4 rows at a time.
	a := newTile(t, pto.Float32, 4, 16)
	b := newTile(t, pto.Float32, 4, 16)
	o := newTile(t, pto.Float32, 4, 16)
	for r := 0; r < n; r++ {
		must(t, a.WriteFloat32(x[r*64:(r+1)*64]))
		must(t, b.WriteFloat32(s[r*64:(r+1)*64]))
		must(t, pto.TPrelu(o, a, b, nil))
		sameBits(t, "rows", y1[r*64:(r+1)*64], readF32(t, o))
	}

	// A slice of the wrong element type is refused before anything runs.
	_, err = p.Run(pto.Named("x", make([]int32, n*64)), pto.Named("s", s), pto.Named("y", y1), pto.Named("n", n))
	expectStatus(t, err, pto.ErrDTypeMismatch, "%x")
}

func TestProgramErrors(t *testing.T) {
	_, err := pto.NewProgram("pto.tfoo ins()", pto.SourceName("bad.pto"))
	expectStatus(t, err, pto.ErrInvalidArgument, "bad.pto:1:1: error: ")
	var perr *pto.Error
	if !errors.As(err, &perr) || perr.Line != 1 || perr.Column != 1 {
		t.Fatalf("position of %v: %+v", err, perr)
	}

	_, err = pto.NewProgram("\n\n  pto.tfoo ins()")
	if !errors.As(err, &perr) || perr.Line != 3 || perr.Column != 3 || !strings.HasPrefix(perr.Message, "<string>:3:3: error: ") {
		t.Fatalf("second error %v: %+v", err, perr)
	}

	// A missing argument that the program reads.
	p := newProgram(t, preluKernel, pto.SourceName("k.pto"))
	y := make([]float32, 64)
	_, err = p.Run(pto.Named("s", y), pto.Named("y", y), pto.Named("n", 1))
	expectStatus(t, err, pto.ErrInvalidArgument, "%x is read but not bound")
	// An unknown name, a value of the wrong kind, an unsupported Go type.
	_, err = p.Run(pto.Named("nope", 1))
	expectStatus(t, err, pto.ErrInvalidArgument, "nope")
	_, err = p.Run(pto.Named("n", 1.5))
	expectStatus(t, err, pto.ErrInvalidArgument, "")
	_, err = p.Run(pto.Named("n", "one"))
	expectStatus(t, err, pto.ErrInvalidArgument, "string")
	// A run-time fault: n larger than the arrays, with its position.
	x := make([]float32, 64)
	_, err = p.Run(pto.Named("x", x), pto.Named("s", x), pto.Named("y", y), pto.Named("n", 2))
	if !errors.As(err, &perr) || perr.Line == 0 || !strings.HasPrefix(perr.Message, "k.pto:") {
		t.Fatalf("run-time fault: %v", err)
	}

	// A closed program.
	q, err := pto.NewProgram(powSSA)
	must(t, err)
	q.Close()
	q.Close()
	_, err = q.Run()
	if !errors.Is(err, pto.ErrClosed) || !q.Closed() {
		t.Fatalf("closed program: %v", err)
	}
}

func TestProgramProfile(t *testing.T) {
	p := newProgram(t, preluDPS, pto.ForProfile(pto.ProfileA5))
	if p.Profile() != pto.ProfileA5 {
		t.Errorf("Profile %v", p.Profile())
	}
	if pto.CurrentProfile() != pto.ProfileHost {
		t.Errorf("ForProfile leaked into the thread: %v", pto.CurrentProfile())
	}
	if pto.ParamTile.String() != "TILE" || pto.Float16.String() != "FLOAT16" || pto.DType(42).String() != "DType(42)" {
		t.Error("names")
	}
}

const preluValid8 = `%dst = pto.tprelu %a, %b : !pto.tile<16x16xf32, valid=8x8>`

const preluValidDynamic = `%dst = pto.tprelu %a, %b : !pto.tile<16x16xf32, valid=?x?>`

func TestProgramDeclaredValidRegion(t *testing.T) {
	p := newProgram(t, preluValid8)
	params := p.Params()
	if len(params) != 3 {
		t.Fatalf("params %+v", params)
	}
	for _, prm := range params {
		if prm.Rows != 16 || prm.Cols != 16 || prm.ValidRows != 8 || prm.ValidCols != 8 || !prm.StaticValid() {
			t.Errorf("param %+v: want 16x16, valid 8x8", prm)
		}
	}

	// Full 16x16 inputs whose valid region is the declared one.
	a := f32Tile(t, pto.Float32, 16, 16, values(256, 5, 4, 4)...)
	b := f32Tile(t, pto.Float32, 16, 16, values(256, 6, 1, 1)...)
	must(t, a.SetValid(8, 8))
	must(t, b.SetValid(8, 8))
	want := newTile(t, pto.Float32, 16, 16)
	must(t, want.SetValid(8, 8))
	must(t, pto.TPrelu(want, a, b, nil))

	// The created dst has the declared valid region.
	res, err := p.Run(pto.Named("a", a), pto.Named("b", b))
	must(t, err)
	defer res.Close()
	dst := res["dst"]
	if dst == nil || dst.Rows() != 16 || dst.Cols() != 16 || dst.ValidRows() != 8 || dst.ValidCols() != 8 {
		t.Fatalf("results %v", res)
	}
	w := validF32(readF32(t, want), 16, 8, 8)
	sameBits(t, "dst valid region", validF32(readF32(t, dst), 16, 8, 8), w)

	// A tile whose region is not the declared one is refused.
	full := newTile(t, pto.Float32, 16, 16)
	_, err = p.Run(pto.Named("a", a), pto.Named("b", b), pto.Named("dst", full))
	expectStatus(t, err, pto.ErrShapeMismatch, "")

	dyn := newProgram(t, preluValidDynamic)
	for _, prm := range dyn.Params() {
		if prm.ValidRows != -1 || prm.ValidCols != -1 || prm.StaticValid() {
			t.Errorf("param %+v: want a dynamic valid region", prm)
		}
	}
}

// validF32 returns the top-left rows x cols elements of a tile's values
// (row stride stride), row by row.
func validF32(all []float32, stride, rows, cols int) []float32 {
	out := make([]float32, 0, rows*cols)
	for r := 0; r < rows; r++ {
		out = append(out, all[r*stride:r*stride+cols]...)
	}
	return out
}

// twoPublic is examples/pto/entry-by-name.pto, a module of two public
// functions and no pto.entry mark: the entry must be chosen by name.
var twoPublic = readExample("entry-by-name.pto")

func TestProgramEntryAndDescribe(t *testing.T) {
	_, err := pto.NewProgram(twoPublic, pto.SourceName("two.pto"))
	expectStatus(t, err, pto.ErrInvalidArgument, "2 public functions (@fill, @twice)")
	_, err = pto.NewProgram(twoPublic, pto.Entry(""))
	expectStatus(t, err, pto.ErrInvalidArgument, "2 public functions")
	_, err = pto.NewProgram(twoPublic, pto.Entry("nope"))
	expectStatus(t, err, pto.ErrInvalidArgument, "no function @nope")

	p := newProgram(t, twoPublic, pto.Entry("twice"), pto.SourceName("two.pto"))
	if params := p.Params(); len(params) != 2 || params[0].Name != "p" || params[1].Name != "n" || params[1].Kind != pto.ParamInt {
		t.Fatalf("params of @twice: %+v", params)
	}
	d := p.Describe()
	if !strings.Contains(d, "@twice(") || !strings.Contains(d, "(entry)") || !strings.Contains(d, "@fill(") {
		t.Fatalf("Describe:\n%s", d)
	}
	out := make([]int32, 1)
	_, err = p.Run(pto.Named("p", out), pto.Named("n", 21))
	must(t, err)
	if out[0] != 42 {
		t.Fatalf("@twice wrote %d, want 42", out[0])
	}

	// With a leading '@', the other function.
	q := newProgram(t, twoPublic, pto.Entry("@fill"))
	if len(q.Params()) != 1 || !strings.Contains(q.Describe(), "@fill(%p: !pto.ptr<i32>)  (entry)") {
		t.Fatalf("@fill: %+v\n%s", q.Params(), q.Describe())
	}
	q.Close()
	if q.Describe() != "" {
		t.Fatalf("Describe of a closed program: %q", q.Describe())
	}
}
