//! The calling thread's settings that change later instructions: the cube
//! modes (SETHF32MODE, SETTF32MODE) here; the fixpipe's quantisation
//! configuration (SET_QUANT_SCALAR, SET_QUANT_VECTOR) and the img2col
//! registers are generated from src/settings.def (ops_generated.rs).
//!
//! libpto keeps them per OS thread, as the [`Profile`](crate::Profile): a
//! setting applies to the calls the same thread makes afterwards and to no
//! other thread's (a new thread starts with both modes off and no
//! configuration). An async task that may move between worker threads
//! between two calls must set them and run the instructions that read them
//! without an `.await` in between.

use crate::enums::RoundMode;
use crate::error::{check, Result};
use crate::sys;

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
