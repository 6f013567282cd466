//! Target profiles: the rules of an NPU target enforced on the CPU.

use std::marker::PhantomData;

pub use crate::enums::Profile;
use crate::sys;

impl Profile {
    /// libpto's name: `"HOST"`, `"A2A3"`, `"A5"`.
    pub fn name(self) -> String {
        crate::c_string(unsafe { sys::pto_profile_string(self.raw()) })
    }

    /// The calling thread's profile.
    pub fn current() -> Profile {
        Profile::from_raw(unsafe { sys::pto_get_profile() }).unwrap_or(Profile::Host)
    }
}

/// Restores the thread's previous profile when dropped (see [`set_profile`]).
/// It cannot leave its thread, since profiles are per thread.
#[must_use = "the profile is restored when the guard is dropped"]
pub struct ProfileGuard {
    previous: sys::pto_profile,
    _not_send: PhantomData<*const ()>,
}

impl Drop for ProfileGuard {
    fn drop(&mut self) {
        // A valid enum value: cannot fail.
        unsafe { sys::pto_set_profile(self.previous) };
    }
}

/// Sets the calling thread's profile until the returned guard is dropped.
/// Profiles are per thread: other threads keep theirs.
pub fn set_profile(profile: Profile) -> ProfileGuard {
    let previous = unsafe { sys::pto_get_profile() };
    // Every Profile is inside the C enum, so this cannot fail.
    unsafe { sys::pto_set_profile(profile.raw()) };
    ProfileGuard {
        previous,
        _not_send: PhantomData,
    }
}

/// Runs `f` under `profile` on this thread and restores the previous profile
/// afterwards (also if `f` panics).
///
/// ```
/// use pto::{DType, ErrorKind, InPlace, Profile, Tile};
/// let mut t = Tile::new(DType::Uint8, 1, 2).unwrap();
/// assert!(pto::tpartadd(&mut t, InPlace, InPlace).is_ok());
/// let err = pto::with_profile(Profile::A2A3, || pto::tpartadd(&mut t, InPlace, InPlace)).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::UnsupportedDType);
/// assert!(err.message().contains("A2A3"));
/// ```
pub fn with_profile<R>(profile: Profile, f: impl FnOnce() -> R) -> R {
    let _guard = set_profile(profile);
    f()
}

/// Runs `f` in board mode (`pto_set_board_mode`) on this thread and restores
/// the previous mode afterwards (also if `f` panics): under `Profile::A2A3`
/// and `Profile::A5` a rule that the NPU implementation checks only in a
/// debug build runs as that implementation does, with one warning per
/// occurrence on stderr, instead of failing (docs/profiles.md, "Board mode");
/// `Profile::Host` ignores it.
pub fn with_board_mode<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(i32);
    impl Drop for Restore {
        fn drop(&mut self) {
            // 0 or 1: cannot fail.
            unsafe { sys::pto_set_board_mode(self.0) };
        }
    }
    let _restore = Restore(unsafe { sys::pto_board_mode() });
    unsafe { sys::pto_set_board_mode(1) };
    f()
}

/// Whether the calling thread is in board mode (false by default).
pub fn board_mode() -> bool {
    unsafe { sys::pto_board_mode() == 1 }
}
