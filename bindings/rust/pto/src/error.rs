use std::fmt;

pub use crate::enums::ErrorKind;
use crate::sys;

impl ErrorKind {
    /// The C status value.
    pub fn status(self) -> sys::pto_status {
        self.raw()
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
        kind: ErrorKind::from_raw(status),
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
            assert_eq!(ErrorKind::from_raw(kind.status()), kind);
        }
        assert_eq!(ErrorKind::ShapeMismatch.name(), "PTO_ERR_SHAPE_MISMATCH");
        assert_eq!(ErrorKind::OutOfMemory.to_string(), "PTO_ERR_OUT_OF_MEMORY");
        assert_eq!(ErrorKind::Unknown(77).name(), "PTO_STATUS_UNKNOWN");
    }
}
