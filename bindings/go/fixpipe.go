package pto

// The flags of TMovFpEx (pto_c.h's PTO_FIXPIPE_*, ops_generated.go), combined
// with |.
const (
	// FixpipeRelu is the fixpipe's relu before the conversion's rounding
	// (TSTORE / TMOV's ReluPreMode::NormalRelu).
	FixpipeRelu uint = 1
	// FixpipeCast is the conversion without a quantisation word (fp must
	// be nil).
	FixpipeCast uint = 2
	// FixpipeStore is TSTORE's pairs, which add FLOAT32 -> FLOAT32 scaled.
	FixpipeStore uint = 4
)
