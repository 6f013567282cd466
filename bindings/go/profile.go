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

// WithBoardMode runs f in board mode (pto_set_board_mode): under ProfileA2A3
// and ProfileA5 a rule that the NPU implementation checks only in a debug
// build runs as that implementation does, with one warning per occurrence on
// stderr, instead of failing (docs/profiles.md, "Board mode"); ProfileHost
// ignores it. Like WithProfile it locks the goroutine to its OS thread while
// f runs and restores the thread's previous mode afterwards.
func WithBoardMode(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	previous := ptoc.Pto_board_mode()
	if err := check(ptoc.Pto_set_board_mode(1)); err != nil {
		return err
	}
	defer ptoc.Pto_set_board_mode(previous)
	return f()
}

// BoardMode reports whether the OS thread the goroutine runs on is in board
// mode: true inside WithBoardMode, false elsewhere by default.
func BoardMode() bool {
	return ptoc.Pto_board_mode() == 1
}
