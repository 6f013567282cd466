// Quickstart: runs tpow, trsqrt, tprelu, tcolexpanddiv and tpartadd on small
// tiles and prints inputs and results (the Go version of
// examples/quickstart.c).
//
//	cd examples/go && go run .
//
// with PKG_CONFIG_PATH pointing at libpto's pkg-config file if it is not
// installed system-wide.
package main

import (
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/libpto/pto-go"
)

const rows, cols = 2, 4

func tile(values []float32) *pto.Tile {
	t, err := pto.NewTile(pto.Float32, rows, cols)
	check(err)
	if values != nil {
		check(t.WriteFloat32(values))
	}
	return t
}

func check(err error) {
	if err != nil {
		log.Fatal(err) // e.g. "pto: PTO_ERR_SHAPE_MISMATCH: pto_tpow: ..."
	}
}

func show(name string, t *pto.Tile) {
	v, err := t.ReadFloat32()
	check(err)
	fmt.Printf("  %-6s [%dx%d valid %dx%d]", name, t.Rows(), t.Cols(), t.ValidRows(), t.ValidCols())
	for i, x := range v {
		if i%t.Cols() == 0 {
			fmt.Print("\n    ")
		}
		fmt.Printf("%10.6g ", x)
	}
	fmt.Println()
}

func main() {
	fmt.Printf("libpto %s, SIMD target %s\n\n", pto.Version(), pto.SIMDTarget())

	x := tile([]float32{2, -3, 0.5, 9, -1.5, 4, 10, 0})
	defer x.Close()
	y := tile([]float32{10, 3, -2, 0.5, 0.25, 0.25, -1, 0.1})
	defer y.Close()
	dst := tile(nil)
	defer dst.Close()
	tmp := tile(nil)
	defer tmp.Close()
	show("x", x)
	show("y", y)

	fmt.Println("\nTPOW dst = x ^ y (high precision)")
	check(pto.TPow(dst, x, y, tmp, pto.PowHighPrecision))
	show("dst", dst)

	fmt.Println("\nTRSQRT dst = 1 / sqrt(x)  (negative -> NaN, 0 -> inf)")
	check(pto.TRsqrt(dst, x))
	show("dst", dst)

	fmt.Println("\nTPRELU dst = x > 0 ? x : x * y")
	check(pto.TPrelu(dst, x, y, nil))
	show("dst", dst)

	fmt.Println("\nTCOLEXPANDDIV dst[i,j] = x[i,j] / y[0,j]")
	check(pto.TColExpandDiv(dst, x, y))
	show("dst", dst)

	fmt.Println("\nTPARTADD with y valid only in its 1x2 corner: sum there, copy of x elsewhere")
	check(y.SetValid(1, 2))
	check(pto.TPartAdd(dst, x, y))
	show("dst", dst)

	fmt.Println("\nErrors are values: a 1x2 base against a 2x4 dst")
	err := pto.TPow(dst, y, x, tmp, pto.PowDefault)
	var perr *pto.Error
	if errors.As(err, &perr) {
		fmt.Printf("  %v: %s\n", perr.Status, perr.Message)
	}
	if !errors.Is(err, pto.ErrShapeMismatch) {
		os.Exit(1)
	}
}
