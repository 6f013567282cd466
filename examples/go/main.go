// Quickstart: a row softmax, y = exp(x - max(x)) / sum(exp(x - max(x)))
// along each row of a 64x256 float32 matrix, from the binding's calls
// (TRowMax, TRowExpandSub, TExp, TRowSum, TRowExpandDiv) and from the kernel
// examples/kernels/softmax.pto run as a Program on 2 blocks; the two must
// agree bit for bit (the Go version of examples/quickstart.c).
//
//	cd examples/go && go run . [KERNEL.pto]
//
// KERNEL.pto defaults to ../kernels/softmax.pto. PKG_CONFIG_PATH points at
// libpto's pkg-config file if it is not installed system-wide.
package main

import (
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"slices"

	"github.com/libpto/pto-go"
)

const rows, cols, blocks = 64, 256, 2

func check(err error) {
	if err != nil {
		log.Fatal(err) // e.g. "pto: PTO_ERR_SHAPE_MISMATCH: pto_trowexpanddiv: ..."
	}
}

func tile(r, c int) *pto.Tile {
	t, err := pto.NewTile(pto.Float32, r, c)
	check(err)
	return t
}

// input is x in [-8, 8) from the linear congruential sequence every
// quickstart uses, so each prints the same numbers.
func input() []float32 {
	x := make([]float32, rows*cols)
	state := uint32(12345)
	for i := range x {
		state = state*1664525 + 1013904223
		x[i] = float32(state>>8)/float32(1<<24)*16 - 8
	}
	return x
}

// softmaxFromCalls runs the five instructions on one 64x256 tile, in place;
// max and sum are one column of 64 rows.
func softmaxFromCalls(x []float32) []float32 {
	t, rowMax, rowSum := tile(rows, cols), tile(rows, 1), tile(rows, 1)
	defer t.Close()
	defer rowMax.Close()
	defer rowSum.Close()
	check(t.WriteFloat32(x))
	check(pto.TRowMax(rowMax, t, nil))          // max(i) = max_j x(i,j)
	check(pto.TRowExpandSub(t, t, rowMax, nil)) // x(i,j) - max(i)
	check(pto.TExp(t, t))                       // e^(x - max)
	check(pto.TRowSum(rowSum, t, nil))          // sum(i) = sum_j e^(...)
	check(pto.TRowExpandDiv(t, t, rowSum, nil)) // e^(...) / sum(i)
	y, err := t.ReadFloat32()
	check(err)
	return y
}

// softmaxFromKernel verifies the kernel file once and runs it on the blocks;
// x and y are bound zero-copy, y holds the result after the run.
func softmaxFromKernel(path string, x []float32) []float32 {
	text, err := os.ReadFile(path)
	check(err)
	p, err := pto.NewProgram(string(text), pto.SourceName(path), pto.Entry("softmax"))
	check(err)
	defer p.Close()
	y := make([]float32, rows*cols)
	_, err = p.Launch(blocks, pto.Named("x", x), pto.Named("y", y),
		pto.Named("m", int64(rows)), pto.Named("n", int64(cols)))
	check(err)
	fmt.Printf("  %s: verified under profile %v, run on %d blocks\n", path, p.Profile(), blocks)
	return y
}

// largestDeviation is the largest relative deviation of y from a softmax of
// x computed in float64.
func largestDeviation(x, y []float32) float64 {
	worst := 0.0
	for i := 0; i < rows; i++ {
		row := x[i*cols : (i+1)*cols]
		rowMax := float64(slices.Max(row))
		sum := 0.0
		for _, v := range row {
			sum += math.Exp(float64(v) - rowMax)
		}
		for j, v := range row {
			exact := math.Exp(float64(v)-rowMax) / sum
			worst = math.Max(worst, math.Abs(float64(y[i*cols+j])-exact)/exact)
		}
	}
	return worst
}

func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(u, v float32) bool { return math.Float32bits(u) == math.Float32bits(v) })
}

func main() {
	kernel := "../kernels/softmax.pto"
	if len(os.Args) > 1 {
		kernel = os.Args[1]
	}
	fmt.Printf("libpto %s, SIMD target %s\n\n", pto.Version(), pto.SIMDTarget())
	fmt.Printf("Row softmax of a %dx%d float32 matrix, y = exp(x - max(x)) / sum(exp(x - max(x)))\n", rows, cols)
	x := input()

	// The calls check the rules of the profile the kernel declares (A5).
	var yCalls []float32
	check(pto.WithProfile(pto.ProfileA5, func() error {
		yCalls = softmaxFromCalls(x)
		return nil
	}))
	fmt.Printf("  calls: TRowMax, TRowExpandSub, TExp, TRowSum, TRowExpandDiv on one %dx%d tile\n", rows, cols)
	yKernel := softmaxFromKernel(kernel, x)

	fmt.Printf("\n  x[0][0..3] %10.6f %10.6f %10.6f %10.6f\n", x[0], x[1], x[2], x[3])
	fmt.Printf("  y[0][0..3] %10.6g %10.6g %10.6g %10.6g\n", yCalls[0], yCalls[1], yCalls[2], yCalls[3])
	fmt.Printf("  largest relative deviation from a softmax in double: %.3g (float32's epsilon %.3g)\n",
		largestDeviation(x, yCalls), math.Nextafter32(1, 2)-1)
	same := sameBits(yCalls, yKernel)
	verdict := "the same bits"
	if !same {
		verdict = "DIFFERENT bits"
	}
	fmt.Printf("  calls and the kernel on %d blocks: %s\n", blocks, verdict)

	fmt.Printf("\nErrors are values: TRowExpandDiv by a 32-row column against %d rows\n", rows)
	t, half := tile(rows, cols), tile(rows/2, 1)
	defer t.Close()
	defer half.Close()
	err := pto.TRowExpandDiv(t, t, half, nil)
	var perr *pto.Error
	if errors.As(err, &perr) {
		fmt.Printf("  %v: %s\n", perr.Status, perr.Message)
	}
	if !same || !errors.Is(err, pto.ErrShapeMismatch) {
		os.Exit(1)
	}
}
