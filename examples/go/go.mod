module example.com/pto-quickstart

go 1.21

require github.com/libpto/pto-go v0.6.0

// Inside this repository the binding is the working copy; a project of your
// own needs no replace (see the README, "Use from your own project").
replace github.com/libpto/pto-go => ../../bindings/go
