package pto_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/libpto/pto-go"
)

func newCubeTile(t *testing.T, dtype pto.DType, rows, cols int, loc pto.Location, layout pto.Layout) *pto.Tile {
	t.Helper()
	tile, err := pto.NewCubeTile(dtype, rows, cols, loc, layout)
	if err != nil {
		t.Fatalf("NewCubeTile(%v, %d, %d, %d, %d): %v", dtype, rows, cols, loc, layout, err)
	}
	t.Cleanup(func() { tile.Close() })
	return tile
}

// Cube tiles keep their location and layout and exchange values row-major;
// under A2A3 and A5 the matrix multiply on the NPU's cube tiles gives HOST's
// bits on row-major tiles, and a row-major a is refused naming the profile.
func TestCubeTiles(t *testing.T) {
	const m, k, n = 16, 32, 16
	a := make([]float32, m*k)
	b := make([]float32, k*n)
	for i := range a {
		a[i] = float32(i%7) - 3.5
	}
	for i := range b {
		b[i] = float32(i%5) * 0.25
	}
	host := newTile(t, pto.Float32, m, n)
	ha, hb := f32Tile(t, pto.Float16, m, k, a...), f32Tile(t, pto.Float16, k, n, b...)
	if err := pto.TMatmul(host, ha, hb); err != nil {
		t.Fatal(err)
	}
	want, _ := host.ReadFloat32()
	for _, c := range []struct {
		profile pto.Profile
		left    pto.Layout
	}{{pto.ProfileA2A3, pto.LayoutZZ}, {pto.ProfileA5, pto.LayoutNZ}} {
		ca := newCubeTile(t, pto.Float16, m, k, pto.LocLeft, c.left)
		cb := newCubeTile(t, pto.Float16, k, n, pto.LocRight, pto.LayoutZN)
		cc := newCubeTile(t, pto.Float32, m, n, pto.LocAcc, pto.LayoutNZ)
		if ca.Location() != pto.LocLeft || ca.Layout() != c.left || host.Location() != pto.LocVec ||
			host.Layout() != pto.LayoutND {
			t.Fatalf("locations and layouts: %d %d %d %d", ca.Location(), ca.Layout(), host.Location(), host.Layout())
		}
		if err := ca.WriteFloat32(a); err != nil {
			t.Fatal(err)
		}
		if err := cb.WriteFloat32(b); err != nil {
			t.Fatal(err)
		}
		err := pto.WithProfile(c.profile, func() error {
			refused := pto.TMatmul(cc, ha, cb)
			if !errors.Is(refused, pto.ErrInvalidArgument) ||
				!strings.Contains(refused.Error(), "under "+c.profile.String()+" a must be a left") {
				t.Errorf("a row-major a under %v: %v", c.profile, refused)
			}
			return pto.TMatmul(cc, ca, cb)
		})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := cc.ReadFloat32()
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%v: element %d is %v, HOST's %v", c.profile, i, got[i], want[i])
			}
		}
	}
	if _, err := pto.NewCubeTile(pto.Float32, 16, 12, pto.LocLeft, pto.LayoutNZ); !errors.Is(err, pto.ErrInvalidArgument) {
		t.Errorf("16x12 NZ float32: %v", err)
	}
}
