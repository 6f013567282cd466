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
use crate::tile::Operand;

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

mod sealed {
    pub trait Sealed {}
    impl<T: crate::tile::Operand> Sealed for &T {}
    impl Sealed for super::InPlace {}
}

/// TGETVAL (`pto_tgetval`): src's element at flat offset `index` (row * cols
/// + col), which must be in src's valid region
/// ([`ErrorKind::OutOfRange`](crate::ErrorKind) otherwise), as an `f64`:
/// exact for every dtype. Written by hand: it gives a value, not a tile.
pub fn tgetval(src: &impl Operand, index: usize) -> Result<f64> {
    let mut out = 0.0f64;
    check(unsafe { sys::pto_tgetval(src.as_ptr(), index as sys::size_t, &mut out) })?;
    Ok(out)
}

// The instructions, one function each: tools/gen-operations.py writes them
// from src/operations.def (the `core` suite's "bindings match
// src/operations.def" test fails when the committed file is out of date).
include!("ops_generated.rs");

/// TSEL (`pto_tsel`): src0 where the mask bit is set, else src1, bit for bit.
///
/// `mask` is a `Uint8` tile, bit j % 8 of byte j / 8 of a row for column j
/// (what [`tcmp`] writes). dst's dtypes: HOST all; A2A3 INT16, UINT16,
/// INT32, UINT32, FLOAT16, BFLOAT16, FLOAT32; A5 all.
///
/// `tmp` is an optional scratch tile (`None` for none; A2A3 requires a
/// `Uint32` one). Written here, not generated: its three sources are more
/// than a row of src/operations.def has.
pub fn tsel(
    dst: &mut impl Operand,
    mask: impl Source,
    src0: impl Source,
    src1: impl Source,
    tmp: Option<&dyn Operand>,
) -> Result<()> {
    let d = dst.as_ptr();
    check(unsafe {
        sys::pto_tsel(
            d,
            mask.source_ptr(d),
            src0.source_ptr(d),
            src1.source_ptr(d),
            tmp.map_or(std::ptr::null_mut(), |t| t.as_ptr()),
        )
    })
}
