module libpto/pto

go 1.19
