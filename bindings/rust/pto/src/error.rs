use std::fmt;

use crate::sys;

/// What kind of failure an [`Error`] is: the C `pto_status` values other than `PTO_OK`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A required tile is missing (e.g. `tmp` of [`tpow`](crate::tpow)).
    NullArgument,
    /// Bad enum value, zero dimension, size overflow, wrong element count.
    InvalidArgument,
    /// The operation does not support this element type (or this algorithm for it).
    UnsupportedDType,
    /// Operands' element types differ where they must be equal.
    DTypeMismatch,
    /// Valid regions violate the operation's rules.
    ShapeMismatch,
    /// A valid region larger than the tile.
    OutOfRange,
    /// Operands share storage where the operation forbids it.
    Aliasing,
    /// The tile could not be allocated.
    OutOfMemory,
    /// A status this version of the binding does not know (its C value).
    Unknown(u32),
}

impl ErrorKind {
    fn from_status(status: sys::pto_status) -> ErrorKind {
        match status {
            sys::pto_status::PTO_ERR_NULL_ARGUMENT => ErrorKind::NullArgument,
            sys::pto_status::PTO_ERR_INVALID_ARGUMENT => ErrorKind::InvalidArgument,
            sys::pto_status::PTO_ERR_UNSUPPORTED_DTYPE => ErrorKind::UnsupportedDType,
            sys::pto_status::PTO_ERR_DTYPE_MISMATCH => ErrorKind::DTypeMismatch,
            sys::pto_status::PTO_ERR_SHAPE_MISMATCH => ErrorKind::ShapeMismatch,
            sys::pto_status::PTO_ERR_OUT_OF_RANGE => ErrorKind::OutOfRange,
            sys::pto_status::PTO_ERR_ALIASING => ErrorKind::Aliasing,
            sys::pto_status::PTO_ERR_OUT_OF_MEMORY => ErrorKind::OutOfMemory,
            other => ErrorKind::Unknown(other.0 as u32),
        }
    }

    /// The C status value.
    pub fn status(self) -> sys::pto_status {
        match self {
            ErrorKind::NullArgument => sys::pto_status::PTO_ERR_NULL_ARGUMENT,
            ErrorKind::InvalidArgument => sys::pto_status::PTO_ERR_INVALID_ARGUMENT,
            ErrorKind::UnsupportedDType => sys::pto_status::PTO_ERR_UNSUPPORTED_DTYPE,
            ErrorKind::DTypeMismatch => sys::pto_status::PTO_ERR_DTYPE_MISMATCH,
            ErrorKind::ShapeMismatch => sys::pto_status::PTO_ERR_SHAPE_MISMATCH,
            ErrorKind::OutOfRange => sys::pto_status::PTO_ERR_OUT_OF_RANGE,
            ErrorKind::Aliasing => sys::pto_status::PTO_ERR_ALIASING,
            ErrorKind::OutOfMemory => sys::pto_status::PTO_ERR_OUT_OF_MEMORY,
            ErrorKind::Unknown(v) => sys::pto_status(v as _),
        }
    }

    /// libpto's name of the status, e.g. `"PTO_ERR_SHAPE_MISMATCH"`.
    pub fn name(self) -> String {
        crate::c_string(unsafe { sys::pto_status_string(self.status()) })
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The error of every failing call: its [`ErrorKind`] and libpto's sentence
/// naming the operation, the operand and the rule that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
///
/// A program's diagnostic ([`Program`](crate::Program) creation, and a
/// run-time fault of a run) reads "NAME:LINE:COL: error: SENTENCE"; its
/// [`Error::line`] and [`Error::column`] hold LINE and COL.
pub struct Error {
    kind: ErrorKind,
    message: String,
    position: Option<(u32, u32)>,
}

/// `Result<T, pto::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// libpto's explanation, e.g. "pto_tpow: base valid region 1x2 differs from dst valid region 2x4".
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The 1-based line of a program diagnostic; `None` for other errors.
    pub fn line(&self) -> Option<u32> {
        self.position.map(|p| p.0)
    }

    /// The 1-based column of a program diagnostic; `None` for other errors.
    pub fn column(&self) -> Option<u32> {
        self.position.map(|p| p.1)
    }

    /// An error the binding itself detects before calling libpto.
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            position: None,
        }
    }

    /// Fills in the position of a diagnostic "NAME:LINE:COL: error: ..." of
    /// the text called `name`.
    pub(crate) fn with_position(mut self, name: &str) -> Error {
        let rest = match self
            .message
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix(':'))
        {
            Some(rest) => rest,
            None => return self,
        };
        let mut parts = rest.splitn(3, ':');
        let (line, col, tail) = (parts.next(), parts.next(), parts.next());
        if let (Some(l), Some(c), Some(t)) = (line, col, tail) {
            if let (Ok(l), Ok(c), true) = (
                l.parse::<u32>(),
                c.parse::<u32>(),
                t.starts_with(" error: "),
            ) {
                if l > 0 && c > 0 {
                    self.position = Some((l, c));
                }
            }
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.kind, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Turns a status into a Result, reading `pto_last_error()` right after the
/// failing call on the same thread (the message is thread-local in C).
pub(crate) fn check(status: sys::pto_status) -> Result<()> {
    if status == sys::pto_status::PTO_OK {
        return Ok(());
    }
    let message = crate::c_string(unsafe { sys::pto_last_error() });
    Err(Error {
        kind: ErrorKind::from_status(status),
        message,
        position: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr;

    // The safe API cannot pass a missing tile or an algorithm outside the
    // enum; the conversion of those statuses is checked on the raw calls.
    #[test]
    fn raw_statuses_become_errors() {
        let err = check(unsafe { sys::pto_trsqrt(ptr::null_mut(), ptr::null()) }).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NullArgument);
        assert!(err.message().contains("pto_trsqrt"), "{}", err);
        assert!(
            err.to_string().starts_with("PTO_ERR_NULL_ARGUMENT: "),
            "{}",
            err
        );

        let mut t: *mut sys::pto_tile = ptr::null_mut();
        check(unsafe { sys::pto_tile_create(sys::pto_dtype::PTO_FLOAT32, 1, 1, &mut t) }).unwrap();
        let err = check(unsafe {
            sys::pto_tpow(
                t,
                t,
                t,
                ptr::null_mut(),
                sys::pto_pow_algorithm::PTO_POW_DEFAULT,
            )
        })
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NullArgument);
        assert!(err.message().contains("pto_tpow"), "{}", err);
        let mut tmp: *mut sys::pto_tile = ptr::null_mut();
        check(unsafe { sys::pto_tile_create(sys::pto_dtype::PTO_FLOAT32, 1, 1, &mut tmp) })
            .unwrap();
        let err =
            check(unsafe { sys::pto_tpow(t, t, t, tmp, sys::pto_pow_algorithm(9)) }).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        assert!(err.message().contains("pto_tpow"), "{}", err);
        unsafe {
            sys::pto_tile_destroy(t);
            sys::pto_tile_destroy(tmp);
            sys::pto_tile_destroy(ptr::null_mut()); // a no-op
        }
    }

    #[test]
    fn kinds_round_trip_and_have_names() {
        let kinds = [
            ErrorKind::NullArgument,
            ErrorKind::InvalidArgument,
            ErrorKind::UnsupportedDType,
            ErrorKind::DTypeMismatch,
            ErrorKind::ShapeMismatch,
            ErrorKind::OutOfRange,
            ErrorKind::Aliasing,
            ErrorKind::OutOfMemory,
            ErrorKind::Unknown(77),
        ];
        for kind in kinds {
            assert_eq!(ErrorKind::from_status(kind.status()), kind);
        }
        assert_eq!(ErrorKind::ShapeMismatch.name(), "PTO_ERR_SHAPE_MISMATCH");
        assert_eq!(ErrorKind::OutOfMemory.to_string(), "PTO_ERR_OUT_OF_MEMORY");
        assert_eq!(ErrorKind::Unknown(77).name(), "PTO_STATUS_UNKNOWN");
    }
}
