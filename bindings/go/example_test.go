package pto_test

import (
	"errors"
	"fmt"

	"github.com/libpto/pto-go"
)

func Example() {
	x, _ := pto.NewTile(pto.Float32, 1, 4)
	defer x.Close()
	dst, _ := pto.NewTile(pto.Float32, 1, 4)
	defer dst.Close()

	_ = x.WriteFloat32([]float32{1, 4, 16, 64})
	if err := pto.TRsqrt(dst, x); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := dst.ReadFloat32()
	fmt.Println(v)

	// Errors carry the status and libpto's explanation.
	small, _ := pto.NewTile(pto.Float32, 1, 2)
	defer small.Close()
	err := pto.TRsqrt(dst, small)
	fmt.Println(errors.Is(err, pto.ErrShapeMismatch))
	// Output:
	// [1 0.5 0.25 0.125]
	// true
}
