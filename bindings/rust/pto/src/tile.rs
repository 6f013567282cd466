use std::fmt;
use std::os::raw::c_void;
use std::ptr::NonNull;

pub use crate::enums::DType;
use crate::enums::{Layout, Location};
use crate::error::{check, Error, ErrorKind, Result};
use crate::sys;

impl DType {
    /// Every element type.
    pub const ALL: [DType; DType::VALUES.len()] = DType::VALUES;

    /// Bytes per element.
    pub fn size(self) -> usize {
        unsafe { sys::pto_dtype_size(self.raw()) as usize }
    }

    /// True for `Float16`, `BFloat16` and `Float32`.
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float16 | DType::BFloat16 | DType::Float32)
    }
}

impl fmt::Display for DType {
    /// libpto's name (`pto_dtype_string`), e.g. `FLOAT32`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::c_string(unsafe {
            sys::pto_dtype_string(self.raw())
        }))
    }
}

/// The methods owned and placed tiles share, over `self.as_ptr()`.
macro_rules! tile_methods {
    () => {
        /// The element type.
        pub fn dtype(&self) -> DType {
            DType::from_raw(unsafe { sys::pto_tile_dtype(self.as_ptr()) }).unwrap_or(DType::Int8)
        }

        /// Number of rows.
        pub fn rows(&self) -> u32 {
            unsafe { sys::pto_tile_rows(self.as_ptr()) }
        }

        /// Number of columns.
        pub fn cols(&self) -> u32 {
            unsafe { sys::pto_tile_cols(self.as_ptr()) }
        }

        /// Rows of the valid region.
        pub fn valid_rows(&self) -> u32 {
            unsafe { sys::pto_tile_valid_rows(self.as_ptr()) }
        }

        /// Columns of the valid region.
        pub fn valid_cols(&self) -> u32 {
            unsafe { sys::pto_tile_valid_cols(self.as_ptr()) }
        }

        /// Where the tile lives: [`Location::Vec`](crate::Location::Vec) but
        /// for a tile of [`Tile::new_cube`](crate::Tile::new_cube).
        pub fn location(&self) -> crate::Location {
            crate::Location::from_raw(unsafe { sys::pto_tile_location(self.as_ptr()) })
                .unwrap_or(crate::Location::Vec)
        }

        /// How its elements lie in its storage: [`Layout::Nd`](crate::Layout::Nd)
        /// (row-major) but for a tile of [`Tile::new_cube`](crate::Tile::new_cube).
        pub fn layout(&self) -> crate::Layout {
            crate::Layout::from_raw(unsafe { sys::pto_tile_layout(self.as_ptr()) })
                .unwrap_or(crate::Layout::Nd)
        }

        /// Number of elements, `rows * cols`.
        pub fn len(&self) -> usize {
            self.rows() as usize * self.cols() as usize
        }

        /// Always false: a tile has at least one element.
        pub fn is_empty(&self) -> bool {
            self.len() == 0
        }

        /// Sets the valid region, anchored at (0, 0); 0 dimensions are allowed.
        ///
        /// Errors: [`ErrorKind::OutOfRange`] if it exceeds the tile (it is then unchanged).
        pub fn set_valid(&mut self, valid_rows: u32, valid_cols: u32) -> Result<()> {
            check(unsafe { sys::pto_tile_set_valid(self.as_ptr(), valid_rows, valid_cols) })
        }

        /// Copies `data` (exactly `len()` values) into the whole tile in one call.
        ///
        /// Integer slices need the tile of their own type (`&[u16]` a `Uint16`
        /// tile, ...; else [`ErrorKind::DTypeMismatch`]); `&[f32]` fills
        /// `Float32`, `Float16` and `BFloat16` tiles, rounding to nearest even.
        /// A wrong length is [`ErrorKind::InvalidArgument`].
        pub fn write<T: Element>(&mut self, data: &[T]) -> Result<()> {
            // SAFETY: the handle is live; &mut self makes this the only access.
            unsafe { T::write(self.as_ptr(), data) }
        }

        /// Copies the whole tile into `out` (exactly `len()` values) in one call.
        /// The element type rules are those of `write`.
        pub fn read_into<T: Element>(&self, out: &mut [T]) -> Result<()> {
            // SAFETY: the handle is live; reading needs no exclusive access.
            unsafe { T::read(self.as_ptr(), out) }
        }

        /// The whole tile as a `Vec` (see `read_into`).
        pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
            let mut out = vec![T::default(); self.len()];
            self.read_into(&mut out)?;
            Ok(out)
        }
    };
}

/// A libpto tile, freed when dropped.
///
/// Everything that writes a tile takes `&mut Tile` (the `dst` of the
/// instructions, `write`, [`Tile::set_valid`], [`Tile::as_mut_slice`]);
/// reads take `&Tile`. The C contract lets threads read one tile at once and
/// forbids only using a tile while another thread writes it, which is what
/// the borrow rules enforce, so a `Tile` is [`Send`] and [`Sync`].
///
/// Use after free cannot happen: dropping consumes the tile.
///
/// ```compile_fail
/// let t = pto::Tile::new(pto::DType::Float32, 2, 2).unwrap();
/// drop(t);
/// t.rows(); // error[E0382]: borrow of moved value
/// ```
///
/// Nor can a slice outlive its tile, or a tile be written while borrowed:
///
/// ```compile_fail
/// let mut t = pto::Tile::new(pto::DType::Float32, 1, 2).unwrap();
/// let v = t.as_slice::<f32>().unwrap();
/// t.write(&[1.0f32, 2.0]).unwrap(); // error[E0502]: t is borrowed by v
/// println!("{}", v[0]);
/// ```
pub struct Tile {
    raw: NonNull<sys::pto_tile>,
}

// SAFETY: libpto allows a tile to be used from any thread; concurrent use is
// limited to reads (&Tile), and every write needs &mut Tile.
unsafe impl Send for Tile {}
unsafe impl Sync for Tile {}

impl Tile {
    /// Creates a zero-filled `rows x cols` tile whose valid region is the whole tile.
    ///
    /// Errors: [`ErrorKind::InvalidArgument`] for a dimension of 0 or a size
    /// above libpto's limit; [`ErrorKind::OutOfMemory`].
    pub fn new(dtype: DType, rows: u32, cols: u32) -> Result<Tile> {
        let mut raw: *mut sys::pto_tile = std::ptr::null_mut();
        check(unsafe { sys::pto_tile_create(dtype.raw(), rows, cols, &mut raw) })?;
        let raw = NonNull::new(raw).ok_or_else(|| {
            Error::new(ErrorKind::OutOfMemory, "pto_tile_create returned no tile")
        })?;
        Ok(Tile { raw })
    }

    /// Creates a zero-filled `rows x cols` tile of one of the cube's memories
    /// in a layout (`pto_tile_create_cube`): its storage is the byte image
    /// the NPU's memory holds, while `write` and `read_into` exchange its
    /// values row-major whatever the layout. Under [`crate::Profile::A2A3`] and
    /// [`crate::Profile::A5`] the matrix multiplies take such tiles (a
    /// [`Location::Left`], b [`Location::Right`], dst [`Location::Acc`],
    /// bias [`Location::Bias`], in the layouts that profile's NPU takes).
    ///
    /// Errors: those of [`Tile::new`]; [`ErrorKind::InvalidArgument`] for a
    /// vec or bias tile not [`Layout::Nd`], a bias tile of more than one
    /// row, or fractal boxes that do not tile `rows x cols`.
    pub fn new_cube(
        dtype: DType,
        rows: u32,
        cols: u32,
        location: Location,
        layout: Layout,
    ) -> Result<Tile> {
        let mut raw: *mut sys::pto_tile = std::ptr::null_mut();
        check(unsafe {
            sys::pto_tile_create_cube(
                dtype.raw(),
                rows,
                cols,
                location.raw(),
                layout.raw(),
                &mut raw,
            )
        })?;
        let raw = NonNull::new(raw).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfMemory,
                "pto_tile_create_cube returned no tile",
            )
        })?;
        Ok(Tile { raw })
    }

    /// Creates a tile and writes `data` (`rows * cols` values) into it.
    pub fn from_slice<T: Element>(dtype: DType, rows: u32, cols: u32, data: &[T]) -> Result<Tile> {
        let mut tile = Tile::new(dtype, rows, cols)?;
        tile.write(data)?;
        Ok(tile)
    }

    /// Frees the tile now (the same as dropping it).
    pub fn close(self) {}

    tile_methods!();

    /// The tile's storage as a slice of its `len()` elements, without copying.
    /// `T` is the tile's own encoding: `i8` for `Int8`, ..., `f32` for
    /// `Float32`, `u16` for the bits of `Float16` and `BFloat16` (else
    /// [`ErrorKind::DTypeMismatch`]). The slice borrows the tile, so it cannot
    /// outlive it or coexist with a write.
    pub fn as_slice<T: Storage>(&self) -> Result<&[T]> {
        check_storage::<T>(self, "as_slice")?;
        // SAFETY: the storage is len() elements of T's encoding, 64-byte
        // aligned, owned by the tile, and only written through &mut Tile.
        Ok(unsafe { std::slice::from_raw_parts(self.data() as *const T, self.len()) })
    }

    /// The tile's storage as a mutable slice (see [`Tile::as_slice`]).
    pub fn as_mut_slice<T: Storage>(&mut self) -> Result<&mut [T]> {
        check_storage::<T>(self, "as_mut_slice")?;
        // SAFETY: as in as_slice; &mut self makes this the only access.
        Ok(unsafe { std::slice::from_raw_parts_mut(self.data() as *mut T, self.len()) })
    }

    fn data(&self) -> *mut c_void {
        unsafe { sys::pto_tile_data(self.as_ptr()) }
    }
}

/// A tile handle the instructions accept: a [`Tile`] or a [`PlacedTile`](crate::PlacedTile).
pub trait Operand: sealed::Operand {
    #[doc(hidden)]
    fn as_ptr(&self) -> *mut sys::pto_tile;
}

impl sealed::Operand for Tile {}
impl Operand for Tile {
    fn as_ptr(&self) -> *mut sys::pto_tile {
        self.raw.as_ptr()
    }
}

impl Drop for Tile {
    fn drop(&mut self) {
        unsafe { sys::pto_tile_destroy(self.as_ptr()) }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tile")
            .field("dtype", &self.dtype())
            .field("rows", &self.rows())
            .field("cols", &self.cols())
            .field("valid_rows", &self.valid_rows())
            .field("valid_cols", &self.valid_cols())
            .finish()
    }
}

pub(crate) mod sealed {
    pub trait Sealed {}
    pub trait Operand {}
}

/// A Rust element type for bulk copies: `i8`, `u8`, `i16`, `u16`, `i32`,
/// `u32` (the tile's own encoding) and `f32` (converted for `Float16` and
/// `BFloat16` tiles).
pub trait Element: Copy + Default + sealed::Sealed {
    #[doc(hidden)]
    /// # Safety
    /// `tile` is a live handle that nothing else uses meanwhile.
    unsafe fn write(tile: *mut sys::pto_tile, data: &[Self]) -> Result<()>;
    #[doc(hidden)]
    /// # Safety
    /// `tile` is a live handle that nothing writes meanwhile.
    unsafe fn read(tile: *mut sys::pto_tile, out: &mut [Self]) -> Result<()>;
}

macro_rules! integer_element {
    ($t:ty, $dtype:expr) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            unsafe fn write(tile: *mut sys::pto_tile, data: &[$t]) -> Result<()> {
                check_dtype(tile, $dtype, stringify!($t), "write")?;
                check(unsafe {
                    sys::pto_tile_write(
                        tile,
                        data.as_ptr() as *const c_void,
                        std::mem::size_of_val(data) as _,
                    )
                })
            }
            unsafe fn read(tile: *mut sys::pto_tile, out: &mut [$t]) -> Result<()> {
                check_dtype(tile, $dtype, stringify!($t), "read_into")?;
                check(unsafe {
                    sys::pto_tile_read(
                        tile,
                        out.as_mut_ptr() as *mut c_void,
                        std::mem::size_of_val(out) as _,
                    )
                })
            }
        }
    };
}

/// The byte count alone would let `&[i16]` fill an `Int8` tile of twice the length.
fn check_dtype(tile: *mut sys::pto_tile, want: DType, rust_type: &str, op: &str) -> Result<()> {
    let got = DType::from_raw(unsafe { sys::pto_tile_dtype(tile) }).unwrap_or(DType::Int8);
    if got == want {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::DTypeMismatch,
        format!(
            "Tile::{}: tile is {:?}, [{}] needs {:?}",
            op, got, rust_type, want
        ),
    ))
}

integer_element!(i8, DType::Int8);
integer_element!(u8, DType::Uint8);
integer_element!(i16, DType::Int16);
integer_element!(u16, DType::Uint16);
integer_element!(i32, DType::Int32);
integer_element!(u32, DType::Uint32);

impl sealed::Sealed for f32 {}
impl Element for f32 {
    unsafe fn write(tile: *mut sys::pto_tile, data: &[f32]) -> Result<()> {
        check(unsafe { sys::pto_tile_write_f32(tile, data.as_ptr(), data.len() as _) })
    }
    unsafe fn read(tile: *mut sys::pto_tile, out: &mut [f32]) -> Result<()> {
        check(unsafe { sys::pto_tile_read_f32(tile, out.as_mut_ptr(), out.len() as _) })
    }
}

/// A Rust type whose values are a tile element's encoding bit for bit, for
/// [`Tile::as_slice`]: `i8`, `u8`, `i16`, `u16`, `i32`, `u32` for the integer
/// dtypes, `f32` for `Float32`, `u16` also for `Float16` and `BFloat16`.
pub trait Storage: Copy + sealed::Sealed {
    #[doc(hidden)]
    fn holds(dtype: DType) -> bool;
    #[doc(hidden)]
    /// The dtype a slice of this type is passed as where no tile says
    /// otherwise (`u16`: `Uint16`).
    fn own_dtype() -> DType;
}

macro_rules! storage {
    ($t:ty, $own:path $(| $dtype:path)*) => {
        impl Storage for $t {
            fn holds(dtype: DType) -> bool {
                matches!(dtype, $own $(| $dtype)*)
            }
            fn own_dtype() -> DType {
                $own
            }
        }
    };
}

storage!(i8, DType::Int8);
storage!(u8, DType::Uint8);
storage!(i16, DType::Int16);
storage!(u16, DType::Uint16 | DType::Float16 | DType::BFloat16);
storage!(i32, DType::Int32);
storage!(u32, DType::Uint32);
storage!(f32, DType::Float32);

fn check_storage<T: Storage>(tile: &Tile, op: &str) -> Result<()> {
    let got = tile.dtype();
    if T::holds(got) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::DTypeMismatch,
        format!(
            "Tile::{}: tile is {:?}, not stored as {}",
            op,
            got,
            std::any::type_name::<T>()
        ),
    ))
}
