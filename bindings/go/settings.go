package pto

import (
	"runtime"

	"github.com/libpto/pto-go/internal/ptoc"
)

// The cube modes and the fixpipe's quantisation configuration are settings
// of the calling OS thread, as the profile is: libpto keeps them per thread,
// and the Go scheduler moves goroutines between threads. A goroutine that
// calls SetTF32Mode, SetHF32Mode, SetQuantScalar or SetQuantVector and then
// the operations that read the setting must stay on one thread in between:
// call runtime.LockOSThread first (and runtime.UnlockOSThread after), or use
// WithTF32Mode / WithHF32Mode, which do it. Other goroutines' threads keep
// their own settings (off, no configuration, on a new thread).
// SetQuantScalar, SetQuantVector and the img2col registers' Setfmatrix,
// SetImg2colPadding and SetImg2colRpt are generated from src/settings.def
// (ops_generated.go); the same holds for them.

// SetHF32Mode is SETHF32MODE (pto_set_hf32_mode): on the calling OS thread,
// from now on (enable) or no longer, the Float32 inputs a and b of TMatmul,
// TMatmulAcc, TMatmulBias, TGemv, TGemvAcc and TGemvBias under ProfileA2A3
// are rounded to HF32 (e8m11) before the multiply, to nearest with ties by
// round: RoundRound (away from zero, the pages' default) or RoundRint (to
// even). Under ProfileHost and ProfileA5 it changes nothing. Errors:
// ErrInvalidArgument for another round mode (the mode is then kept).
func SetHF32Mode(enable bool, round RoundMode) error {
	return check(ptoc.Pto_set_hf32_mode(boolToInt(enable), ptoc.Enum_SS_pto_round_mode(round)))
}

// HF32Mode is the calling OS thread's HF32 mode: whether it is on and its
// round mode (false, RoundRound on a thread that never set it).
func HF32Mode() (bool, RoundMode) {
	var round int32
	on := ptoc.Pto_hf32_mode(&round)
	return on == 1, RoundMode(round)
}

// SetTF32Mode is SETTF32MODE (pto_set_tf32_mode): as SetHF32Mode, for
// ProfileA5's TF32 (e8m10); under ProfileHost and ProfileA2A3 it changes
// nothing.
func SetTF32Mode(enable bool, round RoundMode) error {
	return check(ptoc.Pto_set_tf32_mode(boolToInt(enable), ptoc.Enum_SS_pto_round_mode(round)))
}

// TF32Mode is the calling OS thread's TF32 mode.
func TF32Mode() (bool, RoundMode) {
	var round int32
	on := ptoc.Pto_tf32_mode(&round)
	return on == 1, RoundMode(round)
}

// WithTF32Mode runs f with the TF32 mode on (ties by round), locking the
// goroutine to its OS thread meanwhile, and restores the thread's previous
// mode afterwards (also when f panics). Goroutines that f starts do not see
// it. Errors: SetTF32Mode's (then f does not run), else f's.
func WithTF32Mode(round RoundMode, f func() error) error {
	return withMode(SetTF32Mode, TF32Mode, round, f)
}

// WithHF32Mode is WithTF32Mode for the HF32 mode (ProfileA2A3).
func WithHF32Mode(round RoundMode, f func() error) error {
	return withMode(SetHF32Mode, HF32Mode, round, f)
}

func withMode(set func(bool, RoundMode) error, get func() (bool, RoundMode), round RoundMode, f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wasOn, wasRound := get()
	if err := set(true, round); err != nil {
		return err
	}
	defer set(wasOn, wasRound)
	return f()
}
