module github.com/libpto/pto-go

go 1.21
