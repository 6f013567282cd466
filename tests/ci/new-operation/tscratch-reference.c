
uint64_t ref_tscratch(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, fabs(ref_to_double(dt, a) - ref_to_double(dt, b)));
    const int64_t d = ref_int_value(dt, ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) - (uint64_t)ref_int_value(dt, b)));
    return ref_int_wrap(dt, d < 0 ? 0 - (uint64_t)d : (uint64_t)d);
}
