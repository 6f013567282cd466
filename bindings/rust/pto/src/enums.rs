//! The enums of the C API, generated from include/pto_c.h
//! (tools/gen-enums.py); the modules that use them add their methods.

use crate::sys;

include!("enums_generated.rs");
