//! The instructions, one function each. The iteration domain is dst's valid
//! region.
//!
//! Operands are [`Tile`](crate::Tile)s or [`PlacedTile`](crate::PlacedTile)s.
//! `dst` is always `&mut`: an instruction writes it, and a shared borrow of
//! the same tile cannot exist at the same time. To compute in place (libpto
//! allows `dst` to be any source), pass [`InPlace`] for that source:
//! `pto::trsqrt(&mut x, InPlace)`.

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

/// The rounding of [`tcvt`] (the C enum `pto_round_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundMode {
    /// The target's default: TRUNC for float -> integer, RINT otherwise.
    None,
    /// To nearest, ties to even.
    Rint,
    /// To nearest, ties away from zero.
    Round,
    /// Toward -infinity.
    Floor,
    /// Toward +infinity.
    Ceil,
    /// Toward zero.
    Trunc,
    /// To odd (FLOAT32 -> FLOAT16 only).
    Odd,
}

impl RoundMode {
    fn raw(self) -> sys::pto_round_mode {
        match self {
            RoundMode::None => sys::pto_round_mode::PTO_ROUND_NONE,
            RoundMode::Rint => sys::pto_round_mode::PTO_ROUND_RINT,
            RoundMode::Round => sys::pto_round_mode::PTO_ROUND_ROUND,
            RoundMode::Floor => sys::pto_round_mode::PTO_ROUND_FLOOR,
            RoundMode::Ceil => sys::pto_round_mode::PTO_ROUND_CEIL,
            RoundMode::Trunc => sys::pto_round_mode::PTO_ROUND_TRUNC,
            RoundMode::Odd => sys::pto_round_mode::PTO_ROUND_ODD,
        }
    }
}

/// The saturation of [`tcvt`] (the C enum `pto_saturation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Saturation {
    /// Out-of-range results as each profile documents.
    Off,
    /// Out-of-range results clamp to the destination's range.
    On,
}

impl Saturation {
    fn raw(self) -> sys::pto_saturation {
        match self {
            Saturation::Off => sys::pto_saturation::PTO_SAT_OFF,
            Saturation::On => sys::pto_saturation::PTO_SAT_ON,
        }
    }
}

/// What [`tfillpad`] writes outside src's valid region (the C enum `pto_pad_value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PadValue {
    /// No value: `tfillpad` refuses it.
    Null,
    /// All bits zero.
    Zero,
    /// +infinity for float dtypes, the largest value for integers.
    Max,
    /// -infinity for float dtypes, the smallest value for integers.
    Min,
}

/// The comparison of [`tcmp`] and [`tcmps`] (the C enum `pto_cmp_mode`; IEEE 754: a NaN
/// compares false except for `Ne`, -0 equals +0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpMode {
    /// src0 == src1.
    Eq,
    /// src0 != src1.
    Ne,
    /// src0 < src1.
    Lt,
    /// src0 > src1.
    Gt,
    /// src0 >= src1.
    Ge,
    /// src0 <= src1.
    Le,
}

impl CmpMode {
    fn raw(self) -> sys::pto_cmp_mode {
        match self {
            CmpMode::Eq => sys::pto_cmp_mode::PTO_CMP_EQ,
            CmpMode::Ne => sys::pto_cmp_mode::PTO_CMP_NE,
            CmpMode::Lt => sys::pto_cmp_mode::PTO_CMP_LT,
            CmpMode::Gt => sys::pto_cmp_mode::PTO_CMP_GT,
            CmpMode::Ge => sys::pto_cmp_mode::PTO_CMP_GE,
            CmpMode::Le => sys::pto_cmp_mode::PTO_CMP_LE,
        }
    }
}

impl PadValue {
    fn raw(self) -> sys::pto_pad_value {
        match self {
            PadValue::Null => sys::pto_pad_value::PTO_PAD_NULL,
            PadValue::Zero => sys::pto_pad_value::PTO_PAD_ZERO,
            PadValue::Max => sys::pto_pad_value::PTO_PAD_MAX,
            PadValue::Min => sys::pto_pad_value::PTO_PAD_MIN,
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
