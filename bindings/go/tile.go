package pto

import (
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/libpto/pto-go/internal/ptoc"
)

// Tile owns one libpto tile. Close frees it; a finalizer frees a tile that
// was never closed, as a safety net only. After Close every method that can
// fail returns an error matching ErrClosed (and ErrNullArgument); the
// accessors return 0. Closing twice is harmless.
//
// A Tile value is a reference, like os.File: copies of it (c := *t) share
// one handle, and closing any of them closes it once for all.
//
// Distinct tiles may be used from different goroutines at once; one tile must
// not be written by one goroutine while another uses or closes it.
type Tile struct {
	*tile
}

// tile is the one owner of a C handle; Tile values point to it.
type tile struct {
	handle uintptr // 0 once closed; changed only by release
	bytes  int64   // what accountCreate counted for it
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
	if err := check(ptoc.Pto_tile_create(ptoc.Enum_SS_pto_dtype(dtype), uint(rows), uint(cols), &handle)); err != nil {
		return nil, err
	}
	return newOwner(handle, int64(rows)*int64(cols)*int64(dtype.Size())), nil
}

// NewCubeTile creates a zero-filled rows x cols tile of one of the cube's
// memories in a layout (pto_tile_create_cube): its storage is the byte image
// the NPU's memory holds, while Write* and Read* exchange its values
// row-major whatever the layout. Under ProfileA2A3 and ProfileA5 the matrix
// multiplies take such tiles (a LocLeft, b LocRight, dst LocAcc, bias
// LocBias, in the layouts that profile's NPU takes). Errors as NewTile, and
// ErrInvalidArgument for a location or layout outside its enum, a vec or
// bias tile not LayoutND, a bias tile of more than one row, or fractal boxes
// that do not tile rows x cols.
func NewCubeTile(dtype DType, rows, cols int, location Location, layout Layout) (*Tile, error) {
	if rows < 0 || cols < 0 || uint64(rows) > math.MaxUint32 || uint64(cols) > math.MaxUint32 {
		return nil, bindingError(ErrInvalidArgument, "pto.NewCubeTile: rows and cols must be in [1, 2^32)")
	}
	var handle uintptr
	if err := check(ptoc.Pto_tile_create_cube(ptoc.Enum_SS_pto_dtype(dtype), uint(rows), uint(cols),
		ptoc.Enum_SS_pto_location(location), ptoc.Enum_SS_pto_layout(layout), &handle)); err != nil {
		return nil, err
	}
	return newOwner(handle, int64(rows)*int64(cols)*int64(dtype.Size())), nil
}

// newOwner wraps a fresh handle whose storage is nbytes.
func newOwner(handle uintptr, nbytes int64) *Tile {
	t := &tile{handle: handle, bytes: nbytes + nativeOverhead}
	accountCreate(t.bytes)
	runtime.SetFinalizer(t, (*tile).finalize)
	return &Tile{t}
}

// Close frees the tile. It always returns nil; closing again does nothing.
func (t *Tile) Close() error {
	if t == nil || t.tile == nil {
		return nil
	}
	if t.release() {
		accountClose(t.bytes)
	}
	runtime.SetFinalizer(t.tile, nil)
	return nil
}

// release destroys the handle once; false if it was already gone.
func (t *tile) release() bool {
	h := atomic.SwapUintptr(&t.handle, 0)
	if h == 0 {
		return false
	}
	ptoc.Pto_tile_destroy(h)
	return true
}

func (t *tile) finalize() {
	if t.release() {
		accountFinalized(t.bytes)
	}
}

// Closed reports whether Close has been called.
func (t *Tile) Closed() bool { return t.raw() == 0 }

// raw is the handle, 0 for a nil, zero or closed Tile.
func (t *Tile) raw() uintptr {
	if t == nil || t.tile == nil {
		return 0
	}
	return atomic.LoadUintptr(&t.handle)
}

// keepAlive keeps t's owner (and so its C storage) alive up to this call.
func (t *Tile) keepAlive() {
	if t != nil {
		runtime.KeepAlive(t.tile)
	}
}

// DType is the element type (Int8 for a closed tile).
func (t *Tile) DType() DType {
	defer t.keepAlive()
	return DType(ptoc.Pto_tile_dtype(t.raw()))
}

// Rows is the number of rows (0 for a closed tile).
func (t *Tile) Rows() int {
	defer t.keepAlive()
	return int(ptoc.Pto_tile_rows(t.raw()))
}

// Cols is the number of columns (0 for a closed tile).
func (t *Tile) Cols() int {
	defer t.keepAlive()
	return int(ptoc.Pto_tile_cols(t.raw()))
}

// ValidRows is the number of rows of the valid region (0 for a closed tile).
func (t *Tile) ValidRows() int {
	defer t.keepAlive()
	return int(ptoc.Pto_tile_valid_rows(t.raw()))
}

// ValidCols is the number of columns of the valid region (0 for a closed tile).
func (t *Tile) ValidCols() int {
	defer t.keepAlive()
	return int(ptoc.Pto_tile_valid_cols(t.raw()))
}

// Placed reports whether the tile was placed in a Buffer (NewTileAt).
func (t *Tile) Placed() bool {
	defer t.keepAlive()
	return ptoc.Pto_tile_buffer(t.raw()) != 0
}

// Offset is a placed tile's byte offset in its buffer (0 for an owned tile).
func (t *Tile) Offset() int {
	defer t.keepAlive()
	return int(ptoc.Pto_tile_offset(t.raw()))
}

// Location returns where the tile lives: LocVec for a tile of NewTile or
// NewTileAt (and a closed tile), else its NewCubeTile location.
func (t *Tile) Location() Location {
	defer t.keepAlive()
	return Location(ptoc.Pto_tile_location(t.raw()))
}

// Layout returns how its elements lie in its storage: LayoutND for a tile of
// NewTile or NewTileAt (and a closed tile), else its NewCubeTile layout.
func (t *Tile) Layout() Layout {
	defer t.keepAlive()
	return Layout(ptoc.Pto_tile_layout(t.raw()))
}

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
	defer t.keepAlive()
	return check(ptoc.Pto_tile_set_valid(h, uint(validRows), uint(validCols)))
}

// handleFor returns the handle to pass to C: 0 for a nil tile (libpto then
// reports the missing operand itself) and an error for a closed one.
func (t *Tile) handleFor(op, operand string) (uintptr, error) {
	if t == nil {
		return 0, nil
	}
	h := t.raw()
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
	defer t.keepAlive()
	return check(ptoc.Pto_tile_write(h, asBytes(data)))
}

func readRaw[T element](t *Tile, op string, want DType) ([]T, error) {
	h, err := t.handleFor(op, "the")
	if err != nil {
		return nil, err
	}
	if err := t.checkDType(op, want); err != nil {
		return nil, err
	}
	defer t.keepAlive()
	out := make([]T, t.Len())
	if err := check(ptoc.Pto_tile_read(h, asBytes(out))); err != nil {
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
	defer t.keepAlive()
	return check(ptoc.Pto_tile_write_f32(h, data))
}

// ReadFloat32 returns the Len() values of a Float32, Float16 or BFloat16 tile
// as float32 (widening is exact). Errors: ErrUnsupportedDType for an integer tile.
func (t *Tile) ReadFloat32() ([]float32, error) {
	h, err := t.handleFor("pto.Tile.ReadFloat32", "the")
	if err != nil {
		return nil, err
	}
	defer t.keepAlive()
	out := make([]float32, t.Len())
	if err := check(ptoc.Pto_tile_read_f32(h, out)); err != nil {
		return nil, err
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Zero-copy access.

// Storage is a Go type whose values are a tile element's encoding bit for
// bit: the integer types for the integer dtypes, float32 for Float32, and
// uint16 for the bits of Float16 and BFloat16.
type Storage interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | float32
}

func storageDType[T Storage]() (DType, DType) {
	var zero T
	switch any(zero).(type) {
	case int8:
		return Int8, Int8
	case uint8:
		return Uint8, Uint8
	case int16:
		return Int16, Int16
	case uint16:
		return Uint16, Float16 // and BFloat16, checked by the caller
	case int32:
		return Int32, Int32
	case uint32:
		return Uint32, Uint32
	case float32:
		return Float32, Float32
	}
	return DType(-1), DType(-1)
}

// View calls f with the tile's storage as a slice of its Len() elements,
// without copying: writes through the slice change the tile. The slice is
// valid only while f runs (the tile stays alive until f returns); do not
// keep it, and do not Close the tile inside f. T must be the tile's own
// encoding: int8 for Int8, ..., float32 for Float32, uint16 for Float16 and
// BFloat16 (else ErrDTypeMismatch).
//
// Like every write, f must not run while another goroutine uses the tile.
func View[T Storage](t *Tile, f func([]T)) error {
	h, err := t.handleFor("pto.View", "the")
	if err != nil {
		return err
	}
	defer t.keepAlive()
	got := DType(ptoc.Pto_tile_dtype(h))
	want, alt := storageDType[T]()
	if got != want && got != alt && !(want == Uint16 && got == BFloat16) {
		return bindingError(ErrDTypeMismatch, "pto.View: tile is "+got.String()+", the slice type needs "+want.String())
	}
	n := int(ptoc.Pto_tile_rows(h)) * int(ptoc.Pto_tile_cols(h))
	f(unsafe.Slice((*T)(cPointer(ptoc.Pto_tile_data(h))), n))
	return nil
}

// cPointer turns a C address held as uintptr into a pointer. C memory never
// moves, so this is sound; the indirection keeps vet's unsafeptr check,
// which is about Go memory, quiet.
func cPointer(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }
