// A user program of the Go binding, built by check-user-projects.sh from the
// published module alone.
package main

import (
	"errors"
	"fmt"
	"os"

	pto "github.com/libpto/pto-go"
)

func main() {
	x, err := pto.NewTile(pto.Float32, 1, 4)
	if err != nil {
		panic(err)
	}
	defer x.Close()
	if err := x.WriteFloat32([]float32{1, 4, 16, 64}); err != nil {
		panic(err)
	}
	if err := pto.TRsqrt(x, x); err != nil {
		panic(err)
	}
	v, _ := x.ReadFloat32()
	fmt.Println("go:", pto.Version(), v)
	bad, _ := pto.NewTile(pto.Int32, 1, 4)
	defer bad.Close()
	if err := pto.TRsqrt(x, bad); !errors.Is(err, pto.ErrDTypeMismatch) {
		fmt.Println("unexpected:", err)
		os.Exit(1)
	}
	if v[3] != 0.125 {
		os.Exit(1)
	}
}
