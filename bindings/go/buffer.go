package pto

import (
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/libpto/pto-go/internal/ptoc"
)

// Buffer is a byte arena in which tiles are placed with NewTileAt (the
// pages' TASSIGN): placed tiles read and write the buffer's bytes, and may
// overlap, as programs reusing on-chip memory do. Close releases the handle;
// the storage lives until the buffer and every tile placed in it are closed
// (or collected), in any order. Copies of a Buffer value share one handle.
//
// Go memory cannot be handed to libpto to keep (cgo forbids C to retain Go
// pointers), so a Buffer's storage is always libpto's; Bytes gives zero-copy
// access to it.
type Buffer struct {
	*buffer
}

type buffer struct {
	handle uintptr
	bytes  int64
}

// NewBuffer creates a zero-filled, 64-byte aligned buffer of nbytes bytes.
// Errors: ErrInvalidArgument for 0 or more than libpto's limit (256 MiB);
// ErrOutOfMemory.
func NewBuffer(nbytes int) (*Buffer, error) {
	if nbytes < 0 || uint64(nbytes) > math.MaxInt64 {
		return nil, bindingError(ErrInvalidArgument, "pto.NewBuffer: nbytes must be in [1, 2^28]")
	}
	var handle uintptr
	if err := check(ptoc.Pto_buffer_create(int64(nbytes), &handle)); err != nil {
		return nil, err
	}
	b := &buffer{handle: handle, bytes: int64(nbytes) + nativeOverhead}
	accountCreate(b.bytes)
	runtime.SetFinalizer(b, (*buffer).finalize)
	return &Buffer{b}, nil
}

// Close releases the buffer handle; tiles placed in it stay usable. It
// always returns nil; closing again does nothing.
func (b *Buffer) Close() error {
	if b == nil || b.buffer == nil {
		return nil
	}
	if b.release() {
		accountClose(b.bytes)
	}
	runtime.SetFinalizer(b.buffer, nil)
	return nil
}

func (b *buffer) release() bool {
	h := atomic.SwapUintptr(&b.handle, 0)
	if h == 0 {
		return false
	}
	ptoc.Pto_buffer_destroy(h)
	return true
}

func (b *buffer) finalize() {
	if b.release() {
		accountFinalized(b.bytes)
	}
}

func (b *Buffer) raw() uintptr {
	if b == nil || b.buffer == nil {
		return 0
	}
	return atomic.LoadUintptr(&b.handle)
}

// Closed reports whether Close has been called.
func (b *Buffer) Closed() bool { return b.raw() == 0 }

// Len is the buffer's size in bytes (0 once closed).
func (b *Buffer) Len() int {
	defer b.keepAlive()
	return int(ptoc.Pto_buffer_size(b.raw()))
}

func (b *Buffer) keepAlive() {
	if b != nil {
		runtime.KeepAlive(b.buffer)
	}
}

// Bytes calls f with the buffer's storage, without copying: writes through
// the slice change every tile placed there. The slice is valid only while f
// runs; do not keep it. Errors: ErrClosed for a closed buffer.
func (b *Buffer) Bytes(f func([]byte)) error {
	h := b.raw()
	if h == 0 {
		return &Error{Status: ErrNullArgument, Message: "pto.Buffer.Bytes: the buffer is closed", closed: true}
	}
	defer b.keepAlive()
	f(unsafe.Slice((*byte)(cPointer(ptoc.Pto_buffer_data(h))), int(ptoc.Pto_buffer_size(h))))
	return nil
}

// NewTileAt places a rows x cols tile of dtype at byte offset of buf: its
// elements are the bytes [offset, offset+rows*cols*dtype.Size()) there,
// unchanged (no zero-fill). Placed tiles may overlap; an operation refuses
// (ErrAliasing) to write storage it also reads other than exactly in place.
// The tile keeps the storage alive after buf is closed.
// Errors: as NewTile; ErrNullArgument for a nil buffer (ErrClosed for a
// closed one); ErrInvalidArgument for an offset that is not a multiple of the
// element size; ErrOutOfRange if the tile does not fit.
func NewTileAt(dtype DType, rows, cols int, buf *Buffer, offset int) (*Tile, error) {
	if rows < 0 || cols < 0 || uint64(rows) > math.MaxUint32 || uint64(cols) > math.MaxUint32 {
		return nil, bindingError(ErrInvalidArgument, "pto.NewTileAt: rows and cols must be in [1, 2^32)")
	}
	if offset < 0 {
		return nil, bindingError(ErrOutOfRange, "pto.NewTileAt: offset must not be negative")
	}
	var h uintptr
	if buf != nil {
		if h = buf.raw(); h == 0 {
			return nil, &Error{Status: ErrNullArgument, Message: "pto.NewTileAt: the buffer is closed", closed: true}
		}
	}
	defer buf.keepAlive()
	var handle uintptr
	err := check(ptoc.Pto_tile_create_at(ptoc.Enum_SS_pto_dtype(dtype), uint(rows), uint(cols), h, int64(offset), &handle))
	if err != nil {
		return nil, err
	}
	return newOwner(handle, 0), nil
}
