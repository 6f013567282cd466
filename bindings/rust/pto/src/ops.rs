//! The five instructions. The iteration domain is dst's valid region.
//!
//! Operands are [`Tile`](crate::Tile)s or [`PlacedTile`](crate::PlacedTile)s.
//! `dst` is always `&mut`: an instruction writes it, and a shared borrow of
//! the same tile cannot exist at the same time. To compute in place (libpto
//! allows `dst` to be any source), pass [`InPlace`] for that source:
//! `pto::trsqrt(&mut x, InPlace)`.

use std::ptr;

use crate::error::{check, Result};
use crate::sys;
use crate::tile::Operand;

/// The floating-point algorithm of [`tpow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PowAlgorithm {
    /// Faster, lower precision (float32: within 8 ulp for normal results).
    Default,
    /// Correctly rounded (the same bits on every SIMD target); float tiles only.
    HighPrecision,
}

impl PowAlgorithm {
    fn raw(self) -> sys::pto_pow_algorithm {
        match self {
            PowAlgorithm::Default => sys::pto_pow_algorithm::PTO_POW_DEFAULT,
            PowAlgorithm::HighPrecision => sys::pto_pow_algorithm::PTO_POW_HIGH_PRECISION,
        }
    }
}

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

/// `dst = base ^ exp` elementwise. `tmp` is scratch of the same dtype and
/// valid region, distinct from the others; libpto does not write it.
/// `HighPrecision` is for float tiles only; integers wrap.
pub fn tpow(
    dst: &mut impl Operand,
    base: impl Source,
    exp: impl Source,
    tmp: &impl Operand,
    algo: PowAlgorithm,
) -> Result<()> {
    let d = dst.as_ptr();
    check(unsafe {
        sys::pto_tpow(
            d,
            base.source_ptr(d),
            exp.source_ptr(d),
            tmp.as_ptr(),
            algo.raw(),
        )
    })
}

/// `dst = 1 / sqrt(src)` for `Float32` or `Float16` tiles.
pub fn trsqrt(dst: &mut impl Operand, src: impl Source) -> Result<()> {
    let d = dst.as_ptr();
    check(unsafe { sys::pto_trsqrt(d, src.source_ptr(d)) })
}

/// `dst = src0 > 0 ? src0 : src0 * src1` elementwise (`src1` is the slope);
/// `tmp` is optional (a profile may require it) and never written.
pub fn tprelu(
    dst: &mut impl Operand,
    src0: impl Source,
    src1: impl Source,
    tmp: Option<&dyn Operand>,
) -> Result<()> {
    let d = dst.as_ptr();
    let t = tmp.map_or(ptr::null_mut(), |t| t.as_ptr());
    check(unsafe { sys::pto_tprelu(d, src0.source_ptr(d), src1.source_ptr(d), t) })
}

/// `dst[i,j] = src0[i,j] / src1[0,j]` for `Float32` or `Float16` tiles.
pub fn tcolexpanddiv(dst: &mut impl Operand, src0: impl Source, src1: impl Source) -> Result<()> {
    let d = dst.as_ptr();
    check(unsafe { sys::pto_tcolexpanddiv(d, src0.source_ptr(d), src1.source_ptr(d)) })
}

/// The sum where both sources' valid regions contain (i,j), a copy of the one
/// valid source elsewhere in dst's valid region. One source's valid region
/// must equal dst's and the other's must not exceed it.
pub fn tpartadd(dst: &mut impl Operand, src0: impl Source, src1: impl Source) -> Result<()> {
    let d = dst.as_ptr();
    check(unsafe { sys::pto_tpartadd(d, src0.source_ptr(d), src1.source_ptr(d)) })
}
