package pto

import (
	"errors"

	"github.com/libpto/pto-go/internal/ptoc"
)

// ErrClosed is matched (errors.Is) by the error of any use of a closed Tile.
// Such an error also carries ErrNullArgument, the status libpto itself gives
// for a missing handle.
var ErrClosed = errors.New("pto: tile is closed")

// String returns the enumerator's name, e.g. "PTO_ERR_SHAPE_MISMATCH".
func (s Status) String() string { return ptoc.Pto_status_string(int(s)) }

// Error makes a Status usable as an error value (a sentinel for errors.Is).
func (s Status) Error() string { return s.String() }

// Error is the error every failing call returns: the status and libpto's
// sentence naming the operation, the operand and the rule that failed.
// Retrieve it with errors.As:
//
//	var perr *pto.Error
//	if errors.As(err, &perr) { fmt.Println(perr.Status, perr.Message) }
//
// For a program's diagnostic (NewProgram, and run-time faults of Run and
// Launch), Message reads "NAME:LINE:COL: error: SENTENCE" and Line and
// Column hold LINE and COL (1-based); they are 0 for every other error.
type Error struct {
	Status  Status
	Message string
	Line    int
	Column  int
	closed  bool
}

// Error formats the status and the message: "pto: PTO_ERR_...: sentence".
func (e *Error) Error() string {
	if e.Message == "" {
		return "pto: " + e.Status.String()
	}
	return "pto: " + e.Status.String() + ": " + e.Message
}

// Is reports whether target is e's Status (or ErrClosed for a closed tile).
func (e *Error) Is(target error) bool {
	if s, ok := target.(Status); ok {
		return s == e.Status
	}
	return e.closed && target == ErrClosed
}

// check turns what a cgo wrapper returned into an error. The wrapper read
// pto_last_error() itself, in the same C call and so on the OS thread that
// failed (the message is per thread in C), so no LockOSThread is needed and
// a successful call allocates nothing.
func check(f *ptoc.Failure) error {
	if f == nil {
		return nil
	}
	return &Error{Status: Status(f.Status), Message: f.Message}
}

// closedError is what any use of a closed tile returns.
func closedError(op, operand string) error {
	return &Error{Status: ErrNullArgument, Message: op + ": " + operand + " tile is closed", closed: true}
}

// bindingError reports a misuse that the Go layer catches before calling C,
// in the same form as libpto's own errors.
func bindingError(status Status, message string) error {
	return &Error{Status: status, Message: message}
}
