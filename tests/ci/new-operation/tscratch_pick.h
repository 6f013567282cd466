/* Which source pto_tscratch_pick copies. */
typedef enum pto_scratch_pick {
    PTO_SCRATCH_PICK_FIRST = 0, /* src0 */
    PTO_SCRATCH_PICK_SECOND = 1 /* src1 */
} pto_scratch_pick;

/* dst = src0 or src1 as mode picks, bit for bit (a dummy of
 * tests/ci/new-operation.sh); tmp is required and not used. All dtypes. */
PTO_API pto_status pto_tscratch_pick(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp, pto_scratch_pick mode);

