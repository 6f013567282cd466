//! Buffers and placed tiles (the pages' TASSIGN).

use std::fmt;
use std::marker::PhantomData;
use std::os::raw::c_void;
use std::ptr::NonNull;

use crate::error::{check, Error, ErrorKind, Result};
use crate::sys;
use crate::tile::{sealed, DType, Element, Operand};

/// A byte arena in which tiles are placed ([`Buffer::tile_at`]), owned by
/// libpto ([`Buffer::new`]) or over the caller's memory ([`Buffer::wrap`],
/// zero-copy: the lifetime `'m` keeps that memory borrowed while the buffer
/// and its tiles exist).
///
/// Placed tiles borrow the buffer, may overlap (as programs reusing on-chip
/// memory do; an instruction refuses with [`ErrorKind::Aliasing`] to write
/// storage it also reads other than exactly in place) and stay on the thread
/// that made them. The bytes are reachable as slices only through `&mut
/// Buffer`, i.e. when no placed tile exists.
///
/// ```
/// use pto::{Buffer, DType};
/// let mut memory = vec![0u8; 32];
/// {
///     let buf = Buffer::wrap(&mut memory).unwrap();
///     let mut x = buf.tile_at(DType::Float32, 1, 4, 0).unwrap();
///     let mut y = buf.tile_at(DType::Float32, 1, 4, 16).unwrap();
///     x.write(&[1.0f32, 4.0, 16.0, 64.0]).unwrap();
///     pto::trsqrt(&mut y, &x).unwrap();
/// }
/// // The results are in the caller's memory.
/// assert_eq!(memory[16..20], 1.0f32.to_ne_bytes());
/// ```
pub struct Buffer<'m> {
    raw: NonNull<sys::pto_buffer>,
    _memory: PhantomData<&'m mut [u8]>,
    _not_sync: PhantomData<std::cell::Cell<()>>,
}

// SAFETY: a buffer with no placed tiles (they borrow it, so none exist while
// it moves) may move to another thread; it is not Sync because placing
// tiles through &Buffer from two threads could make them race on shared bytes.
unsafe impl Send for Buffer<'_> {}

impl Buffer<'static> {
    /// A zero-filled, 64-byte aligned buffer of `nbytes` bytes owned by libpto.
    ///
    /// Errors: [`ErrorKind::InvalidArgument`] for 0 or more than 256 MiB;
    /// [`ErrorKind::OutOfMemory`].
    pub fn new(nbytes: usize) -> Result<Buffer<'static>> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::pto_buffer_create(nbytes as _, &mut raw) })?;
        Buffer::from_raw(raw)
    }
}

impl<'m> Buffer<'m> {
    /// A buffer over `memory`, without copying: tiles placed in it read and
    /// write those bytes. The memory stays borrowed until the buffer and its
    /// tiles are dropped.
    ///
    /// Errors: [`ErrorKind::InvalidArgument`] for an empty slice or one above 256 MiB.
    pub fn wrap(memory: &'m mut [u8]) -> Result<Buffer<'m>> {
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::pto_buffer_wrap(
                memory.as_mut_ptr() as *mut c_void,
                memory.len() as _,
                &mut raw,
            )
        })?;
        Buffer::from_raw(raw)
    }

    fn from_raw(raw: *mut sys::pto_buffer) -> Result<Buffer<'m>> {
        let raw = NonNull::new(raw)
            .ok_or_else(|| Error::new(ErrorKind::OutOfMemory, "libpto returned no buffer"))?;
        Ok(Buffer {
            raw,
            _memory: PhantomData,
            _not_sync: PhantomData,
        })
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        unsafe { sys::pto_buffer_size(self.raw.as_ptr()) as usize }
    }

    /// Always false: a buffer has at least one byte.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes, without copying (no placed tile can exist meanwhile).
    pub fn as_bytes(&mut self) -> &[u8] {
        // SAFETY: len() bytes at pto_buffer_data, and &mut self excludes
        // every placed tile (they borrow the buffer).
        unsafe { std::slice::from_raw_parts(self.data(), self.len()) }
    }

    /// The bytes, mutable (see [`Buffer::as_bytes`]).
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in as_bytes.
        unsafe { std::slice::from_raw_parts_mut(self.data(), self.len()) }
    }

    fn data(&self) -> *mut u8 {
        unsafe { sys::pto_buffer_data(self.raw.as_ptr()) as *mut u8 }
    }

    /// TASSIGN: a `rows x cols` tile whose elements are the bytes
    /// `[offset, offset + rows*cols*size)` of this buffer, as they are (no
    /// zero-fill).
    ///
    /// Errors: as [`Tile::new`](crate::Tile::new);
    /// [`ErrorKind::InvalidArgument`] for an offset that is not a multiple of
    /// the element size; [`ErrorKind::OutOfRange`] if the tile does not fit.
    pub fn tile_at(
        &self,
        dtype: DType,
        rows: u32,
        cols: u32,
        offset: usize,
    ) -> Result<PlacedTile<'_>> {
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::pto_tile_create_at(
                dtype.raw(),
                rows,
                cols,
                self.raw.as_ptr(),
                offset as _,
                &mut raw,
            )
        })?;
        let raw = NonNull::new(raw)
            .ok_or_else(|| Error::new(ErrorKind::OutOfMemory, "libpto returned no tile"))?;
        Ok(PlacedTile {
            raw,
            _buffer: PhantomData,
        })
    }
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        unsafe { sys::pto_buffer_destroy(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Buffer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer").field("len", &self.len()).finish()
    }
}

/// A tile placed in a [`Buffer`] ([`Buffer::tile_at`]). It has the methods
/// of [`Tile`](crate::Tile) except the slice views (placed tiles may
/// overlap, so a slice of one could alias another's writes); read its bytes
/// through the buffer once the tiles are dropped, or copy with `to_vec`. It
/// borrows the buffer and stays on its thread:
///
/// ```compile_fail
/// let buf = pto::Buffer::new(64).unwrap();
/// let t = buf.tile_at(pto::DType::Float32, 1, 4, 0).unwrap();
/// std::thread::spawn(move || t.rows()); // error: PlacedTile is not Send
/// ```
///
/// ```compile_fail
/// let mut buf = pto::Buffer::new(64).unwrap();
/// let t = buf.tile_at(pto::DType::Float32, 1, 4, 0).unwrap();
/// let bytes = buf.as_bytes_mut(); // error: buf is borrowed by t
/// drop(t);
/// ```
pub struct PlacedTile<'b> {
    raw: NonNull<sys::pto_tile>,
    // Borrows the buffer; *const () makes it neither Send nor Sync.
    _buffer: PhantomData<(&'b (), *const ())>,
}

impl PlacedTile<'_> {
    tile_methods!();

    /// The byte offset in the buffer.
    pub fn offset(&self) -> usize {
        unsafe { sys::pto_tile_offset(self.as_ptr()) as usize }
    }
}

impl sealed::Operand for PlacedTile<'_> {}
impl Operand for PlacedTile<'_> {
    fn as_ptr(&self) -> *mut sys::pto_tile {
        self.raw.as_ptr()
    }
}

impl Drop for PlacedTile<'_> {
    fn drop(&mut self) {
        unsafe { sys::pto_tile_destroy(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for PlacedTile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlacedTile")
            .field("dtype", &self.dtype())
            .field("rows", &self.rows())
            .field("cols", &self.cols())
            .field("offset", &self.offset())
            .finish()
    }
}
