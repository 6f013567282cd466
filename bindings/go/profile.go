package pto

import (
	"runtime"
	"strconv"

	"github.com/libpto/pto-go/internal/ptoc"
)

// String returns the profile's name: "HOST", "A2A3", "A5".
func (p Profile) String() string {
	if p < 0 || p > 255 {
		return "Profile(" + strconv.Itoa(int(p)) + ")"
	}
	return ptoc.Pto_profile_string(ptoc.Enum_SS_pto_profile(p))
}

// WithProfile runs f under profile p and returns f's error.
//
// libpto keeps the profile per OS thread, and the Go scheduler moves
// goroutines between threads, so WithProfile locks the calling goroutine to
// its thread while f runs, sets the profile there and restores the thread's
// previous profile afterwards (also when f panics). Calls made by f itself
// run under p; goroutines that f starts do not. Errors: ErrInvalidArgument
// for a value outside the enum (then f does not run).
func WithProfile(p Profile, f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	previous := ptoc.Pto_get_profile()
	if err := check(ptoc.Pto_set_profile(ptoc.Enum_SS_pto_profile(p))); err != nil {
		return err
	}
	defer ptoc.Pto_set_profile(previous)
	return f()
}

// CurrentProfile is the profile of the OS thread the goroutine runs on: p
// inside WithProfile(p, ...), ProfileHost elsewhere unless the program sets
// profiles through other means.
func CurrentProfile() Profile {
	return Profile(ptoc.Pto_get_profile())
}
