// Package ptoc is the cgo layer SWIG generates from bindings/pto.i and
// include/pto_c.h. It is internal: package pto is the API.
//
// The generated files (ptoc.go, ptoc_wrap.c) are not committed. The meson
// build generates them into its build directory; outside meson, run
//
//	go generate ./...
//
// in bindings/go with pkg-config able to find libpto (PKG_CONFIG_PATH).
package ptoc

//go:generate sh -c "swig -go -cgo -intgosize 64 $(pkg-config --cflags-only-I pto) -o ptoc_wrap.c -outdir . ../../../pto.i"
