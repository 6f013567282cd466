package pto_test

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"

	pto "github.com/libpto/pto-go"
)

func TestProfiles(t *testing.T) {
	if pto.ProfileA2A3.String() != "A2A3" || pto.ProfileHost.String() != "HOST" || pto.ProfileA5.String() != "A5" {
		t.Fatal("profile names")
	}
	dst := newTile(t, pto.Uint8, 1, 2)
	src := newTile(t, pto.Uint8, 1, 2)
	// UINT8 tpartadd: fine on HOST, refused on A2A3 with a message naming it.
	must(t, pto.TPartAdd(dst, src, src))
	err := pto.WithProfile(pto.ProfileA2A3, func() error {
		if pto.CurrentProfile() != pto.ProfileA2A3 {
			t.Error("CurrentProfile inside WithProfile")
		}
		return pto.TPartAdd(dst, src, src)
	})
	expectStatus(t, err, pto.ErrUnsupportedDType, "A2A3")
	if pto.CurrentProfile() != pto.ProfileHost {
		t.Fatal("the profile was not restored")
	}
	expectStatus(t, pto.WithProfile(pto.Profile(9), func() error {
		t.Fatal("f ran under an invalid profile")
		return nil
	}), pto.ErrInvalidArgument, "")

	// Profiles are per OS thread: goroutines under different profiles at
	// once each see their own, whatever threads they run on.
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			d, _ := pto.NewTile(pto.Uint8, 1, 2)
			defer d.Close()
			p := []pto.Profile{pto.ProfileA2A3, pto.ProfileA5}[g%2]
			for i := 0; i < 100; i++ {
				err := pto.WithProfile(p, func() error {
					runtime.Gosched()
					return pto.TPartAdd(d, d, d)
				})
				if (p == pto.ProfileA2A3) != errors.Is(err, pto.ErrUnsupportedDType) {
					t.Errorf("goroutine %d under %v: %v", g, p, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestBuffersAndPlacedTiles(t *testing.T) {
	buf, err := pto.NewBuffer(64)
	must(t, err)
	defer buf.Close()
	if buf.Len() != 64 {
		t.Fatalf("Len %d", buf.Len())
	}
	// Two float32 1x4 tiles at 0 and 16, written through the buffer's bytes.
	a, err := pto.NewTileAt(pto.Float32, 1, 4, buf, 0)
	must(t, err)
	defer a.Close()
	b, err := pto.NewTileAt(pto.Float32, 1, 4, buf, 16)
	must(t, err)
	defer b.Close()
	if !a.Placed() || b.Offset() != 16 || newTile(t, pto.Float32, 1, 1).Placed() {
		t.Fatal("Placed/Offset")
	}
	must(t, a.WriteFloat32([]float32{1, 4, 16, 64}))
	must(t, pto.TRsqrt(b, a))
	must(t, buf.Bytes(func(p []byte) {
		if len(p) != 64 || p[16+3] != 0x3f || p[16+2] != 0x80 { // b[0] = 1.0f
			t.Errorf("buffer bytes % x", p[16:20])
		}
		p[0], p[1], p[2], p[3] = 0, 0, 0x80, 0x40 // a[0] = 4.0f
	}))
	expectF32(t, "placed b", readF32(t, b), []float32{1, 0.5, 0.25, 0.125})
	expectF32(t, "placed a", readF32(t, a), []float32{4, 4, 16, 64})

	// Partial overlap between dst and a source is refused.
	c, err := pto.NewTileAt(pto.Float32, 1, 4, buf, 8)
	must(t, err)
	defer c.Close()
	expectStatus(t, pto.TRsqrt(c, a), pto.ErrAliasing, "pto_trsqrt")

	// The tiles outlive the buffer handle.
	must(t, buf.Close())
	must(t, pto.TRsqrt(b, b))
	expectF32(t, "after buffer close", readF32(t, b), []float32{1, 1.4142135, 2, 2.828427})
	if err := buf.Bytes(func([]byte) {}); !errors.Is(err, pto.ErrClosed) {
		t.Fatalf("Bytes of a closed buffer: %v", err)
	}
	_, err = pto.NewTileAt(pto.Float32, 1, 1, buf, 0)
	if !errors.Is(err, pto.ErrClosed) {
		t.Fatalf("placing in a closed buffer: %v", err)
	}
}

func TestPlacementErrors(t *testing.T) {
	buf, err := pto.NewBuffer(16)
	must(t, err)
	defer buf.Close()
	_, err = pto.NewTileAt(pto.Float32, 1, 8, buf, 0)
	expectStatus(t, err, pto.ErrOutOfRange, "pto_tile_create_at")
	_, err = pto.NewTileAt(pto.Float32, 1, 1, buf, 2)
	expectStatus(t, err, pto.ErrInvalidArgument, "pto_tile_create_at")
	_, err = pto.NewTileAt(pto.Float32, 1, 1, nil, 0)
	expectStatus(t, err, pto.ErrNullArgument, "pto_tile_create_at")
	_, err = pto.NewBuffer(0)
	expectStatus(t, err, pto.ErrInvalidArgument, "pto_buffer_create")
	if _, err := pto.NewBuffer(1 << 29); err == nil || !strings.Contains(err.Error(), "pto_buffer_create") {
		t.Fatalf("a buffer above the limit: %v", err)
	}
}
