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

	// A program: a kernel-free snippet, its result tile created by Run.
	prog, err := pto.NewProgram("%y = pto.trsqrt %x : (!pto.tile<1x4xf32>) -> !pto.tile<1x4xf32>", pto.SourceName("user.pto"))
	if err != nil {
		panic(err)
	}
	defer prog.Close()
	in, _ := pto.NewTile(pto.Float32, 1, 4)
	defer in.Close()
	_ = in.WriteFloat32([]float32{1, 4, 16, 64})
	res, err := prog.Run(pto.Named("x", in))
	if err != nil {
		panic(err)
	}
	defer res.Close()
	y, _ := res["y"].ReadFloat32()
	fmt.Println("go program:", y)
	var perr *pto.Error
	if _, err := pto.NewProgram("pto.tfoo ins()"); !errors.As(err, &perr) || perr.Line != 1 || y[3] != 0.125 {
		fmt.Println("unexpected:", err, y)
		os.Exit(1)
	}
}
