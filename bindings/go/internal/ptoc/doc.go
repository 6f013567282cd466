// Package ptoc is the cgo layer SWIG generates from bindings/pto.i and
// include/pto_c.h. It is internal: package pto is the API.
//
// ptoc.go and ptoc_wrap.c are generated and committed (a Go module has to
// ship its cgo code, so users need no SWIG): after changing the header or
// pto.i, run bindings/go/generate.sh (SWIG 4.1). CI runs
// `generate.sh --check`, which fails when they differ from SWIG's output.
package ptoc

//go:generate sh ../../generate.sh
