//! PTO tile instructions on the CPU, through libpto: one function each,
//! named after it ([`tpow`] runs TPOW).
//!
//! A [`Tile`] is a `rows x cols` row-major array of one element type with a
//! valid region anchored at (0, 0). Create tiles, fill them with
//! [`Tile::write`], run an instruction, read the result back; a tile is freed
//! when it is dropped.
//!
//! ```
//! use pto::{DType, Tile};
//!
//! fn main() -> Result<(), pto::Error> {
//!     let x = Tile::from_slice(DType::Float32, 1, 4, &[1.0f32, 4.0, 16.0, 64.0])?;
//!     let mut y = Tile::new(DType::Float32, 1, 4)?;
//!     pto::trsqrt(&mut y, &x)?;
//!     assert_eq!(y.as_slice::<f32>()?, [1.0, 0.5, 0.25, 0.125]); // no copy
//!
//!     // Errors carry the status and libpto's explanation.
//!     let small = Tile::new(DType::Float32, 1, 2)?;
//!     let err = pto::trsqrt(&mut y, &small).unwrap_err();
//!     assert_eq!(err.kind(), pto::ErrorKind::ShapeMismatch);
//!     assert!(err.message().contains("pto_trsqrt"));
//!     Ok(())
//! }
//! ```
//!
//! Version 0.2 adds target [`Profile`]s ([`with_profile`] runs a closure
//! under the rules of an NPU target on the calling thread) and [`Buffer`]s
//! with [`PlacedTile`]s (the pages' TASSIGN), including buffers over the
//! caller's own memory ([`Buffer::wrap`]).
//!
//! Version 0.3 adds [`Program`]s: PTO assembly text verified once and run
//! with [`Args`] bound by name or position (slices zero-copy, scalars,
//! tiles); see the `program` module's example.
//!
//! Version 0.6 binds the calling thread's cube modes ([`set_tf32_mode`],
//! [`set_hf32_mode`]) and fixpipe configuration ([`set_quant_scalar`],
//! [`set_quant_vector`]), which libpto keeps per OS thread (a setting
//! applies to the calls of the thread that made it), [`mgather`] and
//! [`mscatter`] over slices, [`tquant_mx`], and HiFloat4's [`tquant_hif4`] and
//! [`tmatmul_mx_hif4`].
//!
//! Building needs an installed libpto found by `pkg-config pto` (set
//! `PKG_CONFIG_PATH` for a prefix that is not a system one, and
//! `LD_LIBRARY_PATH` to run); the raw C ABI is the `pto-sys` crate,
//! re-exported as [`sys`].

#![warn(missing_docs)]

mod enums;
mod error;
#[macro_use]
mod tile;
mod ops;
mod placement;
mod profile;
mod program;
mod settings;

pub use enums::*; // DType, ErrorKind, Profile, ParamKind and the instructions' modes
pub use error::{Error, Result};
pub use ops::*; // the instructions (generated from src/operations.def), InPlace, Source
pub use placement::{Buffer, PlacedTile};
pub use profile::{board_mode, set_profile, with_board_mode, with_profile, ProfileGuard};
pub use program::{Arg, Args, Memory, Param, ParamKey, Program, ProgramBuilder};
pub use settings::{hf32_mode, set_hf32_mode, set_tf32_mode, tf32_mode};
pub use tile::{Element, Operand, Storage, Tile};

/// The raw C ABI (the `pto-sys` crate; unsafe, prefer the safe API).
pub use pto_sys as sys;

use std::ffi::CStr;
use std::os::raw::c_char;

/// Copies a static or thread-local C string returned by libpto.
pub(crate) fn c_string(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: libpto returns NUL-terminated strings that stay valid until the
    // thread's next libpto call; this copies before making another.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// libpto's version, "MAJOR.MINOR.PATCH".
pub fn version() -> String {
    c_string(unsafe { sys::pto_version_string() })
}

/// The SIMD target the kernels dispatch to, e.g. "AVX2".
pub fn simd_target() -> String {
    c_string(unsafe { sys::pto_simd_target() })
}
