//! The five instructions. The iteration domain is dst's valid region; `dst`
//! may be the same tile as any source.

use std::ptr;

use crate::error::{check, Result};
use crate::sys;
use crate::tile::Tile;

/// The floating-point algorithm of [`tpow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PowAlgorithm {
    /// Faster, lower precision (float32: within 8 ulp for normal results).
    Default,
    /// Within 1 ulp, exact where the result is representable; float tiles only.
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

fn opt(tile: Option<&Tile>) -> *mut sys::pto_tile {
    tile.map_or(ptr::null_mut(), Tile::as_ptr)
}

/// `dst = base ^ exp` elementwise. `tmp` is scratch of the same dtype and
/// valid region, distinct from the others; its contents afterwards are
/// unspecified. `HighPrecision` is for float tiles only; integers wrap.
pub fn tpow(dst: &Tile, base: &Tile, exp: &Tile, tmp: &Tile, algo: PowAlgorithm) -> Result<()> {
    check(unsafe {
        sys::pto_tpow(
            dst.as_ptr(),
            base.as_ptr(),
            exp.as_ptr(),
            tmp.as_ptr(),
            algo.raw(),
        )
    })
}

/// `dst = 1 / sqrt(src)` for `Float32` or `Float16` tiles.
pub fn trsqrt(dst: &Tile, src: &Tile) -> Result<()> {
    check(unsafe { sys::pto_trsqrt(dst.as_ptr(), src.as_ptr()) })
}

/// `dst = src0 > 0 ? src0 : src0 * src1` elementwise (`src1` is the slope); `tmp` is optional.
pub fn tprelu(dst: &Tile, src0: &Tile, src1: &Tile, tmp: Option<&Tile>) -> Result<()> {
    check(unsafe { sys::pto_tprelu(dst.as_ptr(), src0.as_ptr(), src1.as_ptr(), opt(tmp)) })
}

/// `dst[i,j] = src0[i,j] / src1[0,j]` for `Float32` or `Float16` tiles.
pub fn tcolexpanddiv(dst: &Tile, src0: &Tile, src1: &Tile) -> Result<()> {
    check(unsafe { sys::pto_tcolexpanddiv(dst.as_ptr(), src0.as_ptr(), src1.as_ptr()) })
}

/// The sum where both sources' valid regions contain (i,j), a copy of the one
/// valid source elsewhere in dst's valid region. One source's valid region
/// must equal dst's and the other's must not exceed it.
pub fn tpartadd(dst: &Tile, src0: &Tile, src1: &Tile) -> Result<()> {
    check(unsafe { sys::pto_tpartadd(dst.as_ptr(), src0.as_ptr(), src1.as_ptr()) })
}
