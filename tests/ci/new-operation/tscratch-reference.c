
uint32_t ref_tscratch(pto_dtype dt, uint32_t a, uint32_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, fabs(ref_to_double(dt, a) - ref_to_double(dt, b)));
    const int64_t d = ref_int_value(dt, ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) - (uint64_t)ref_int_value(dt, b)));
    return ref_int_wrap(dt, (uint64_t)(d < 0 ? -d : d));
}
