//! The calling thread's settings that change later instructions: the cube
//! modes (SETHF32MODE, SETTF32MODE) and the fixpipe's quantisation
//! configuration (SET_QUANT_SCALAR, SET_QUANT_VECTOR).
//!
//! libpto keeps them per OS thread, as the [`Profile`](crate::Profile): a
//! setting applies to the calls the same thread makes afterwards and to no
//! other thread's (a new thread starts with both modes off and no
//! configuration). An async task that may move between worker threads
//! between two calls must set them and run the instructions that read them
//! without an `.await` in between.

use crate::enums::{DType, RoundMode};
use crate::error::{check, Result};
use crate::sys;
use crate::tile::Operand;

/// SETHF32MODE (`pto_set_hf32_mode`): from now on (`enable`) or no longer,
/// the `Float32` inputs a and b of the matrix multiplies (tmatmul,
/// tmatmul_acc, tmatmul_bias, tgemv, tgemv_acc, tgemv_bias) under
/// `Profile::A2A3` are rounded to HF32 (e8m11) first, to nearest with ties by
/// `round`: `RoundMode::Round` (away from zero, the pages' default) or
/// `RoundMode::Rint` (to even). Under HOST and A5 it changes nothing. Errors:
/// [`ErrorKind::InvalidArgument`](crate::ErrorKind) for another round mode
/// (the mode is then kept).
pub fn set_hf32_mode(enable: bool, round: RoundMode) -> Result<()> {
    check(unsafe { sys::pto_set_hf32_mode(enable as std::os::raw::c_int, round.raw()) })
}

/// The calling thread's HF32 mode: whether it is on, and its round mode
/// (`(false, RoundMode::Round)` on a thread that never set it).
pub fn hf32_mode() -> (bool, RoundMode) {
    let mut round = sys::pto_round_mode::PTO_ROUND_NONE;
    let on = unsafe { sys::pto_hf32_mode(&mut round) };
    (
        on == 1,
        RoundMode::from_raw(round).unwrap_or(RoundMode::None),
    )
}

/// SETTF32MODE (`pto_set_tf32_mode`): as [`set_hf32_mode`], for
/// `Profile::A5`'s TF32 (e8m10); under HOST and A2A3 it changes nothing.
pub fn set_tf32_mode(enable: bool, round: RoundMode) -> Result<()> {
    check(unsafe { sys::pto_set_tf32_mode(enable as std::os::raw::c_int, round.raw()) })
}

/// The calling thread's TF32 mode: whether it is on, and its round mode.
pub fn tf32_mode() -> (bool, RoundMode) {
    let mut round = sys::pto_round_mode::PTO_ROUND_NONE;
    let on = unsafe { sys::pto_tf32_mode(&mut round) };
    (
        on == 1,
        RoundMode::from_raw(round).unwrap_or(RoundMode::None),
    )
}

/// SET_QUANT_SCALAR (`pto_set_quant_scalar`): the calling thread's fixpipe
/// configuration becomes one scalar word for every column, from `scale` and
/// the output dtype it is meant for (`Int8`, `Uint8`, `Int16`, `Float16`,
/// `BFloat16`, `HiFloat8` or `Float8E4M3`); [`tmov_fp`](crate::tmov_fp),
/// [`textract_fp`](crate::textract_fp) and [`tinsert_fp`](crate::tinsert_fp)
/// with [`NoTile`](crate::NoTile) for fp on this thread use it. Errors:
/// [`ErrorKind::UnsupportedDType`](crate::ErrorKind) for another dtype (the
/// configuration is then kept).
pub fn set_quant_scalar(scale: f32, dtype: DType) -> Result<()> {
    check(unsafe { sys::pto_set_quant_scalar(scale, dtype.raw()) })
}

/// SET_QUANT_VECTOR (`pto_set_quant_vector`): the calling thread's fixpipe
/// configuration becomes a copy of fp's row 0, one word per column (a
/// `Location::Scaling` tile of one row: `Uint64`, `Int64`, `Float16`,
/// `BFloat16` or `Float32`); later writes to fp are not seen. Errors:
/// [`ErrorKind::InvalidArgument`](crate::ErrorKind) for a tile not of
/// `Location::Scaling`, [`ErrorKind::UnsupportedDType`](crate::ErrorKind) for
/// another dtype (the configuration is then kept).
pub fn set_quant_vector(fp: &impl Operand) -> Result<()> {
    check(unsafe { sys::pto_set_quant_vector(fp.as_ptr()) })
}
