module example.com/pto-gc-bench

go 1.19

require github.com/libpto/pto-go v0.2.0

replace github.com/libpto/pto-go => ../../../bindings/go
