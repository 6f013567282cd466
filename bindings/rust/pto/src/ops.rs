//! The instructions, one function each. The iteration domain is dst's valid
//! region.
//!
//! Operands are [`Tile`](crate::Tile)s or [`PlacedTile`](crate::PlacedTile)s.
//! `dst` is always `&mut`: an instruction writes it, and a shared borrow of
//! the same tile cannot exist at the same time. To compute in place (libpto
//! allows `dst` to be any source), pass [`InPlace`] for that source:
//! `pto::trsqrt(&mut x, InPlace)`.

use crate::enums::*; // the modes the generated instructions take
use crate::error::{check, Result};
use crate::sys;
use crate::tile::{Operand, Storage};

/// A source operand: another tile (`&Tile`, `&PlacedTile`) or [`InPlace`], dst itself.
pub trait Source: sealed::Sealed {
    #[doc(hidden)]
    fn source_ptr(&self, dst: *mut sys::pto_tile) -> *const sys::pto_tile;
}

/// The source that is dst itself, for computing in place:
/// `pto::tpartadd(&mut acc, InPlace, &x)` adds `x` into `acc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InPlace;

impl<T: Operand> Source for &T {
    fn source_ptr(&self, _dst: *mut sys::pto_tile) -> *const sys::pto_tile {
        self.as_ptr()
    }
}

impl Source for InPlace {
    fn source_ptr(&self, dst: *mut sys::pto_tile) -> *const sys::pto_tile {
        dst
    }
}

/// No tile, for a source the C function lets be NULL: tquant's offset in its
/// INT8_SYM form (an INT8 dst), `pto::tquant(&mut q, &x, &scale, NoTile, None)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoTile;

impl Source for NoTile {
    fn source_ptr(&self, _dst: *mut sys::pto_tile) -> *const sys::pto_tile {
        std::ptr::null()
    }
}

mod sealed {
    pub trait Sealed {}
    impl<T: crate::tile::Operand> Sealed for &T {}
    impl Sealed for super::InPlace {}
    impl Sealed for super::NoTile {}
}

// The instructions, one function each: tools/gen-operations.py writes them
// from src/operations.def (the `core` suite's "bindings match
// src/operations.def" test fails when the committed file is out of date).
include!("ops_generated.rs");

/// The flags of [`tmov_fp_ex`] (`pto_c.h`'s `PTO_FIXPIPE_*`), combined with `|`:
/// the fixpipe's relu before the conversion's rounding (ReluPreMode::NormalRelu).
pub const FIXPIPE_RELU: u32 = 1;
/// [`tmov_fp_ex`]'s conversion without a quantisation word (`fp` must be [`NoTile`]).
pub const FIXPIPE_CAST: u32 = 2;
/// [`tmov_fp_ex`] on TSTORE's pairs, which add FLOAT32 -> FLOAT32 scaled.
pub const FIXPIPE_STORE: u32 = 4;

/// The dtype a table of `T` is passed as for the tile `tile`: the tile's own
/// when `T` stores it (`u16` for `Float16` and `BFloat16`), else `T`'s, which
/// libpto then refuses as [`ErrorKind::DTypeMismatch`](crate::ErrorKind).
fn table_dtype<T: Storage>(tile: *mut sys::pto_tile) -> sys::pto_dtype {
    let got = DType::from_raw(unsafe { sys::pto_tile_dtype(tile) });
    match got {
        Some(d) if T::holds(d) => d.raw(),
        _ => T::own_dtype().raw(),
    }
}

/// MGATHER with the page's GatherOOB (`pto_mgather_oob`): as [`mgather`],
/// except that an index past the table (its rows under [`Coalesce::Row`], its
/// elements under [`Coalesce::Elem`]; an index read as a `u32`) is clamped to
/// the last ([`GatherOob::Clamp`]), taken modulo the capacity
/// ([`GatherOob::Wrap`]) or gives zero bits ([`GatherOob::Zero`]);
/// [`GatherOob::Undefined`] refuses it as [`mgather`] does.
pub fn mgather_oob<T: Storage>(
    dst: &mut impl Operand,
    table: &[T],
    indices: &impl Operand,
    coalesce: Coalesce,
    oob: GatherOob,
) -> Result<()> {
    let d = dst.as_ptr();
    check(unsafe {
        sys::pto_mgather_oob(
            d,
            table.as_ptr() as *const std::os::raw::c_void,
            table.len() as sys::size_t,
            table_dtype::<T>(d),
            indices.as_ptr(),
            coalesce.raw(),
            oob.raw(),
        )
    })
}

/// MSCATTER with the page's ScatterAtomicOp and ScatterOOB
/// (`pto_mscatter_ex`): as [`mscatter`], except that [`ScatterAtomic::Add`],
/// `Max` and `Min` combine each source element with the table's, one at a
/// time in row-major order (the dtypes per profile as `pto_c.h` lists them),
/// and an index past the table is skipped ([`ScatterOob::Skip`]), clamped or
/// wrapped; [`ScatterOob::Undefined`] refuses it as [`mscatter`] does.
pub fn mscatter_ex<T: Storage>(
    table: &mut [T],
    src: &impl Operand,
    indices: &impl Operand,
    coalesce: Coalesce,
    atomic: ScatterAtomic,
    oob: ScatterOob,
) -> Result<()> {
    let s = src.as_ptr();
    check(unsafe {
        sys::pto_mscatter_ex(
            table.as_mut_ptr() as *mut std::os::raw::c_void,
            table.len() as sys::size_t,
            table_dtype::<T>(s),
            s,
            indices.as_ptr(),
            coalesce.raw(),
            atomic.raw(),
            oob.raw(),
        )
    })
}
