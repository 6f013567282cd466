package pto

import (
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"libpto/pto/internal/ptoc"
)

// Tile owns one libpto tile. Close frees it; a finalizer frees a tile that
// was never closed, as a safety net only. After Close every method that can
// fail returns an error matching ErrClosed (and ErrNullArgument); the
// accessors return 0. Closing twice is harmless.
//
// Distinct tiles may be used from different goroutines at once; one tile must
// not be written by one goroutine while another uses or closes it.
type Tile struct {
	handle uintptr // 0 once closed; changed only by Close
}

// NewTile creates a zero-filled rows x cols tile of dtype whose valid region
// is the whole tile. Errors: ErrInvalidArgument for a dimension of 0 (or
// outside uint32), a dtype outside the enum or a size above libpto's limit;
// ErrOutOfMemory.
func NewTile(dtype DType, rows, cols int) (*Tile, error) {
	if rows < 0 || cols < 0 || uint64(rows) > math.MaxUint32 || uint64(cols) > math.MaxUint32 {
		return nil, bindingError(ErrInvalidArgument, "pto.NewTile: rows and cols must be in [1, 2^32)")
	}
	var handle uintptr
	err := call(func() ptoc.Enum_SS_pto_status {
		return ptoc.Pto_tile_create(ptoc.Enum_SS_pto_dtype(dtype), uint(rows), uint(cols), &handle)
	})
	if err != nil {
		return nil, err
	}
	t := &Tile{handle: handle}
	runtime.SetFinalizer(t, (*Tile).release)
	return t, nil
}

// Close frees the tile. It always returns nil; closing again does nothing.
func (t *Tile) Close() error {
	if t == nil {
		return nil
	}
	runtime.SetFinalizer(t, nil)
	t.release()
	return nil
}

func (t *Tile) release() {
	if h := atomic.SwapUintptr(&t.handle, 0); h != 0 {
		ptoc.Pto_tile_destroy(h)
	}
}

// Closed reports whether Close has been called.
func (t *Tile) Closed() bool { return t == nil || atomic.LoadUintptr(&t.handle) == 0 }

// DType is the element type (Int8 for a closed tile).
func (t *Tile) DType() DType {
	return DType(t.with(func(h uintptr) uint { return uint(ptoc.Pto_tile_dtype(h)) }))
}

// Rows is the number of rows (0 for a closed tile).
func (t *Tile) Rows() int { return int(t.with(ptoc.Pto_tile_rows)) }

// Cols is the number of columns (0 for a closed tile).
func (t *Tile) Cols() int { return int(t.with(ptoc.Pto_tile_cols)) }

// ValidRows is the number of rows of the valid region (0 for a closed tile).
func (t *Tile) ValidRows() int { return int(t.with(ptoc.Pto_tile_valid_rows)) }

// ValidCols is the number of columns of the valid region (0 for a closed tile).
func (t *Tile) ValidCols() int { return int(t.with(ptoc.Pto_tile_valid_cols)) }

// Len is the number of elements, Rows()*Cols().
func (t *Tile) Len() int { return t.Rows() * t.Cols() }

// SetValid sets the valid region, anchored at (0, 0); 0 dimensions are
// allowed. Errors: ErrOutOfRange if it exceeds the tile (then unchanged).
func (t *Tile) SetValid(validRows, validCols int) error {
	h, err := t.handleFor("pto.Tile.SetValid", "the")
	if err != nil {
		return err
	}
	if validRows < 0 || validCols < 0 || uint64(validRows) > math.MaxUint32 || uint64(validCols) > math.MaxUint32 {
		return bindingError(ErrOutOfRange, "pto.Tile.SetValid: valid region must be in [0, 2^32)")
	}
	defer runtime.KeepAlive(t)
	return call(func() ptoc.Enum_SS_pto_status {
		return ptoc.Pto_tile_set_valid(h, uint(validRows), uint(validCols))
	})
}

// with runs a C accessor on the handle, 0 for a closed tile.
func (t *Tile) with(accessor func(uintptr) uint) uint {
	if t.Closed() {
		return 0
	}
	defer runtime.KeepAlive(t)
	return accessor(t.handle)
}

// handleFor returns the handle to pass to C: 0 for a nil tile (libpto then
// reports the missing operand itself) and an error for a closed one.
func (t *Tile) handleFor(op, operand string) (uintptr, error) {
	if t == nil {
		return 0, nil
	}
	h := atomic.LoadUintptr(&t.handle)
	if h == 0 {
		return 0, closedError(op, operand)
	}
	return h, nil
}

// ---------------------------------------------------------------------------
// Bulk copies: the whole tile (not just the valid region) in one C call.

// element is a Go type whose values are a tile's encoding bit for bit.
type element interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32
}

func asBytes[T element](data []T) []byte {
	if len(data) == 0 {
		return []byte{}
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), len(data)*int(unsafe.Sizeof(zero)))
}

func writeRaw[T element](t *Tile, op string, want DType, data []T) error {
	h, err := t.handleFor(op, "the")
	if err != nil {
		return err
	}
	if err := t.checkDType(op, want); err != nil {
		return err
	}
	defer runtime.KeepAlive(t)
	return call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tile_write(h, asBytes(data)) })
}

func readRaw[T element](t *Tile, op string, want DType) ([]T, error) {
	h, err := t.handleFor(op, "the")
	if err != nil {
		return nil, err
	}
	if err := t.checkDType(op, want); err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(t)
	out := make([]T, t.Len())
	if err := call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tile_read(h, asBytes(out)) }); err != nil {
		return nil, err
	}
	return out, nil
}

// checkDType refuses a slice whose Go element type is not the tile's dtype,
// which the byte count alone would not catch (e.g. []int16 into INT8).
func (t *Tile) checkDType(op string, want DType) error {
	if got := t.DType(); got != want {
		return bindingError(ErrDTypeMismatch, op+": tile is "+got.String()+", the slice needs "+want.String())
	}
	return nil
}

// WriteInt8 copies len(data) == Len() values into an Int8 tile.
func (t *Tile) WriteInt8(data []int8) error { return writeRaw(t, "pto.Tile.WriteInt8", Int8, data) }

// WriteUint8 copies len(data) == Len() values into a Uint8 tile.
func (t *Tile) WriteUint8(data []uint8) error { return writeRaw(t, "pto.Tile.WriteUint8", Uint8, data) }

// WriteInt16 copies len(data) == Len() values into an Int16 tile.
func (t *Tile) WriteInt16(data []int16) error { return writeRaw(t, "pto.Tile.WriteInt16", Int16, data) }

// WriteUint16 copies len(data) == Len() values into a Uint16 tile.
func (t *Tile) WriteUint16(data []uint16) error {
	return writeRaw(t, "pto.Tile.WriteUint16", Uint16, data)
}

// WriteInt32 copies len(data) == Len() values into an Int32 tile.
func (t *Tile) WriteInt32(data []int32) error { return writeRaw(t, "pto.Tile.WriteInt32", Int32, data) }

// WriteUint32 copies len(data) == Len() values into a Uint32 tile.
func (t *Tile) WriteUint32(data []uint32) error {
	return writeRaw(t, "pto.Tile.WriteUint32", Uint32, data)
}

// ReadInt8 returns the Len() values of an Int8 tile.
func (t *Tile) ReadInt8() ([]int8, error) { return readRaw[int8](t, "pto.Tile.ReadInt8", Int8) }

// ReadUint8 returns the Len() values of a Uint8 tile.
func (t *Tile) ReadUint8() ([]uint8, error) { return readRaw[uint8](t, "pto.Tile.ReadUint8", Uint8) }

// ReadInt16 returns the Len() values of an Int16 tile.
func (t *Tile) ReadInt16() ([]int16, error) { return readRaw[int16](t, "pto.Tile.ReadInt16", Int16) }

// ReadUint16 returns the Len() values of a Uint16 tile.
func (t *Tile) ReadUint16() ([]uint16, error) {
	return readRaw[uint16](t, "pto.Tile.ReadUint16", Uint16)
}

// ReadInt32 returns the Len() values of an Int32 tile.
func (t *Tile) ReadInt32() ([]int32, error) { return readRaw[int32](t, "pto.Tile.ReadInt32", Int32) }

// ReadUint32 returns the Len() values of a Uint32 tile.
func (t *Tile) ReadUint32() ([]uint32, error) {
	return readRaw[uint32](t, "pto.Tile.ReadUint32", Uint32)
}

// WriteFloat32 copies len(data) == Len() values into a Float32, Float16 or
// BFloat16 tile, rounding to nearest even when narrowing. Errors:
// ErrUnsupportedDType for an integer tile; ErrInvalidArgument for a wrong length.
func (t *Tile) WriteFloat32(data []float32) error {
	h, err := t.handleFor("pto.Tile.WriteFloat32", "the")
	if err != nil {
		return err
	}
	if data == nil {
		data = []float32{}
	}
	defer runtime.KeepAlive(t)
	return call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tile_write_f32(h, data) })
}

// ReadFloat32 returns the Len() values of a Float32, Float16 or BFloat16 tile
// as float32 (widening is exact). Errors: ErrUnsupportedDType for an integer tile.
func (t *Tile) ReadFloat32() ([]float32, error) {
	h, err := t.handleFor("pto.Tile.ReadFloat32", "the")
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(t)
	out := make([]float32, t.Len())
	if err := call(func() ptoc.Enum_SS_pto_status { return ptoc.Pto_tile_read_f32(h, out) }); err != nil {
		return nil, err
	}
	return out, nil
}
