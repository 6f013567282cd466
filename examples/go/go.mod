module libpto/examples/quickstart

go 1.19

require libpto/pto v0.0.0

// The binding lives in this repository; against a copy elsewhere, point
// this at its bindings/go directory.
replace libpto/pto => ../../bindings/go
