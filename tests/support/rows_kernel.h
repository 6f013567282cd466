/* The kernel text the C tests launch on several blocks, once:
 * tests/test_program.c (threads and unified buffers kept between launches)
 * and tests/hardening/test_threads.c (launches from many threads). Macros
 * only, so that a test outside the support library includes it too. */
#ifndef PTO_TEST_ROWS_KERNEL_H
#define PTO_TEST_ROWS_KERNEL_H

/* The 8x128 float32 tile and partition each block works on. */
#define ROWS_T8 "!pto.tile_buf<vec, 8x128xf32>"
#define ROWS_P8 "!pto.partition_tensor_view<8x128xf32>"

/* The head of a kernel @NAME(%x, %y, %m) whose block b has %xp and %yp, the
 * partitions of rows 8b..8b+7 of x and y (m x 128 float32). */
#define ROWS_OF_BLOCK(NAME)                                                                                 \
    "func.func @" NAME "(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %m: index) {\n"                              \
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"                                   \
    "  %c8 = arith.constant 8 : index\n  %c128 = arith.constant 128 : index\n"                               \
    "  %b = pto.get_block_idx\n  %bi = arith.index_cast %b : i64 to index\n"                                 \
    "  %r = arith.muli %bi, %c8 : index\n"                                                                   \
    "  %xv = pto.make_tensor_view %x, shape = [%m, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x128xf32>\n" \
    "  %yv = pto.make_tensor_view %y, shape = [%m, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x128xf32>\n" \
    "  %xp = pto.partition_view %xv, offsets = [%r, %c0], sizes = [%c8, %c128] : !pto.tensor_view<?x128xf32> -> " ROWS_P8 "\n" \
    "  %yp = pto.partition_view %yv, offsets = [%r, %c0], sizes = [%c8, %c128] : !pto.tensor_view<?x128xf32> -> " ROWS_P8 "\n"

/* @rows: block b's rows of y = x OP x + x, OP a Binary mnemonic ("tmul",
 * "tadd"). */
#define ROWS_KERNEL(OP)                                                 \
    ROWS_OF_BLOCK("rows")                                               \
    "  %t = pto.alloc_tile : " ROWS_T8 "\n  %u = pto.alloc_tile : " ROWS_T8 "\n" \
    "  pto.tload ins(%xp : " ROWS_P8 ") outs(%t : " ROWS_T8 ")\n"       \
    "  pto." OP " ins(%t, %t : " ROWS_T8 ", " ROWS_T8 ") outs(%u : " ROWS_T8 ")\n" \
    "  pto.tadd ins(%u, %t : " ROWS_T8 ", " ROWS_T8 ") outs(%u : " ROWS_T8 ")\n" \
    "  pto.tstore ins(%u : " ROWS_T8 ") outs(%yp : " ROWS_P8 ")\n"      \
    "  return\n}\n"

#endif
