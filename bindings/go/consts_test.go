package pto

import (
	"testing"

	"github.com/libpto/pto-go/internal/ptoc"
)

// The constants are literals (so they are Go constants); these are the
// header's values as SWIG reads them.
func TestConstantsMatchHeader(t *testing.T) {
	pairs := []struct {
		name      string
		got, want int
	}{
		{"StatusOK", int(StatusOK), int(ptoc.PTO_OK)},
		{"ErrNullArgument", int(ErrNullArgument), int(ptoc.PTO_ERR_NULL_ARGUMENT)},
		{"ErrInvalidArgument", int(ErrInvalidArgument), int(ptoc.PTO_ERR_INVALID_ARGUMENT)},
		{"ErrUnsupportedDType", int(ErrUnsupportedDType), int(ptoc.PTO_ERR_UNSUPPORTED_DTYPE)},
		{"ErrDTypeMismatch", int(ErrDTypeMismatch), int(ptoc.PTO_ERR_DTYPE_MISMATCH)},
		{"ErrShapeMismatch", int(ErrShapeMismatch), int(ptoc.PTO_ERR_SHAPE_MISMATCH)},
		{"ErrOutOfRange", int(ErrOutOfRange), int(ptoc.PTO_ERR_OUT_OF_RANGE)},
		{"ErrAliasing", int(ErrAliasing), int(ptoc.PTO_ERR_ALIASING)},
		{"ErrOutOfMemory", int(ErrOutOfMemory), int(ptoc.PTO_ERR_OUT_OF_MEMORY)},
		{"Int8", int(Int8), int(ptoc.PTO_INT8)},
		{"Uint8", int(Uint8), int(ptoc.PTO_UINT8)},
		{"Int16", int(Int16), int(ptoc.PTO_INT16)},
		{"Uint16", int(Uint16), int(ptoc.PTO_UINT16)},
		{"Int32", int(Int32), int(ptoc.PTO_INT32)},
		{"Uint32", int(Uint32), int(ptoc.PTO_UINT32)},
		{"Float16", int(Float16), int(ptoc.PTO_FLOAT16)},
		{"BFloat16", int(BFloat16), int(ptoc.PTO_BFLOAT16)},
		{"Float32", int(Float32), int(ptoc.PTO_FLOAT32)},
		{"Int64", int(Int64), int(ptoc.PTO_INT64)},
		{"Uint64", int(Uint64), int(ptoc.PTO_UINT64)},
		{"Float8E4M3", int(Float8E4M3), int(ptoc.PTO_FLOAT8_E4M3)},
		{"Float8E5M2", int(Float8E5M2), int(ptoc.PTO_FLOAT8_E5M2)},
		{"HiFloat8", int(HiFloat8), int(ptoc.PTO_HIFLOAT8)},
		{"Float8E8M0", int(Float8E8M0), int(ptoc.PTO_FLOAT8_E8M0)},
		{"Float4E2M1X2", int(Float4E2M1X2), int(ptoc.PTO_FLOAT4_E2M1X2)},
		{"Float4E1M2X2", int(Float4E1M2X2), int(ptoc.PTO_FLOAT4_E1M2X2)},
		{"Int4X2", int(Int4X2), int(ptoc.PTO_INT4X2)},
		{"PowDefault", int(PowDefault), int(ptoc.PTO_POW_DEFAULT)},
		{"PowHighPrecision", int(PowHighPrecision), int(ptoc.PTO_POW_HIGH_PRECISION)},
		{"ProfileHost", int(ProfileHost), int(ptoc.PTO_PROFILE_HOST)},
		{"ProfileA2A3", int(ProfileA2A3), int(ptoc.PTO_PROFILE_A2A3)},
		{"ProfileA5", int(ProfileA5), int(ptoc.PTO_PROFILE_A5)},
		{"ParamPointer", int(ParamPointer), int(ptoc.PTO_PARAM_POINTER)},
		{"ParamInt", int(ParamInt), int(ptoc.PTO_PARAM_INT)},
		{"ParamFloat", int(ParamFloat), int(ptoc.PTO_PARAM_FLOAT)},
		{"ParamTile", int(ParamTile), int(ptoc.PTO_PARAM_TILE)},
	}
	for _, p := range pairs {
		if p.got != p.want {
			t.Errorf("%s = %d, the header says %d", p.name, p.got, p.want)
		}
	}
}

// BenchmarkBareCgo is one cgo call into libpto that does next to nothing
// (pto_tile_rows): the floor that the per-call overhead is measured against.
func BenchmarkBareCgo(b *testing.B) {
	tile, err := NewTile(Float32, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer tile.Close()
	h := tile.raw()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ptoc.Pto_tile_rows(h)
	}
}
