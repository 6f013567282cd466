// The cube's layout moves (src/fractal.cc's CopyRegion, cell by cell with
// whole runs copied at once and crossed runs by the transpose kernel, on
// every SIMD target) against the definition: each element of the
// region copied alone from ElementOffset's place in the source image to
// ElementOffset's place in the destination image. Every layout (ND, DN and
// the boxed NZ, ZN, ZZ, NN with boxes of 512, 1024 and 32 bytes, a 1-row
// tile's boxes of one row), every element size (1, 2, 4, 8 bytes), every
// pair of layouts, regions of odd sizes at box-aligned and unaligned
// corners, and the bytes outside the region (the images' padding) kept.
// FillRegion (tload's pad of a subview, tfillpad) likewise. Also tload's
// and tstore's grouping of a view's rows
// (program/run/block.h's ForEachViewRowGroup) against ForEachViewRow.
//
// Like test_kernel_coverage, this test reads the library's private headers:
// the moves are internal and have no C entry point of their own.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "fractal.h"
#include "program/run/block.h"
#include "support.h"

namespace {

using pto::Box;
using pto::Layout;

// A deterministic generator (xorshift64*), so a failure repeats.
struct Rng {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  uint64_t Next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
  }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
};

// A dtype of each element size (only its size shapes the boxes).
pto_dtype DtypeOfSize(size_t size) {
  switch (size) {
    case 1: return PTO_INT8;
    case 2: return PTO_BFLOAT16;
    case 4: return PTO_FLOAT32;
    default: return PTO_INT64;
  }
}

// Every layout of `size`-byte elements with a shape of `row_boxes` x
// `col_boxes` boxes (odd sizes for ND and DN).
std::vector<Layout> Layouts(size_t size, uint32_t row_boxes, uint32_t col_boxes) {
  const pto_dtype dtype = DtypeOfSize(size);
  std::vector<Layout> out;
  out.push_back(pto::RowMajorLayout(7 * row_boxes + 3, 5 * col_boxes + 6));
  Layout dn = pto::RowMajorLayout(9 * row_boxes + 2, 3 * col_boxes + 4);
  dn.col_major = true;
  out.push_back(dn);
  const uint32_t fractals[] = {512, 1024, 32};
  for (uint32_t fractal : fractals)
    for (int col_major = 0; col_major < 2; ++col_major)
      for (Box box : {Box::kRowMajor, Box::kColMajor}) {
        uint32_t ir, ic;
        pto::BoxShape(dtype, box, fractal, &ir, &ic);
        out.push_back(pto::MakeLayout(dtype, ir * row_boxes, ic * col_boxes, col_major != 0, box,
                                      fractal));
        // A tile of one row: boxes of one row.
        out.push_back(pto::MakeLayout(dtype, 1, ic * col_boxes, col_major != 0, box, fractal));
      }
  return out;
}

// Bytes of an image of layout l.
size_t ImageBytes(const Layout& l, size_t size) { return size_t{l.rows} * l.cols * size; }

// The definition: each element alone.
void CopyByElements(const Layout& ld, char* d, uint64_t dr, uint64_t dc, const Layout& ls,
                    const char* s, uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols,
                    size_t size) {
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j)
      memcpy(d + pto::ElementOffset(ld, dr + i, dc + j) * size,
             s + pto::ElementOffset(ls, sr + i, sc + j) * size, size);
}

// A corner and extent along one axis of an image of `extent` elements
// with boxes of `box`: aligned to the box or anywhere, and a length of at
// least one that fits.
void PickAxis(Rng& rng, uint32_t extent, uint32_t box, bool aligned, uint64_t* start,
              uint64_t* length) {
  *start = aligned ? rng.Below(extent / box) * box : rng.Below(extent);
  *length = 1 + rng.Below(extent - *start);
}

// One region between ld and ls, compared byte for byte over both images.
void CheckOne(Rng& rng, const Layout& ld, const Layout& ls, size_t size, bool aligned) {
  std::vector<char> src(ImageBytes(ls, size)), fast(ImageBytes(ld, size)), ref;
  for (char& c : src) c = static_cast<char>(rng.Next());
  for (char& c : fast) c = static_cast<char>(rng.Next());
  ref = fast;
  uint64_t dr, dc, sr, sc, rows, cols, rows2, cols2;
  PickAxis(rng, ld.rows, ld.inner_rows, aligned, &dr, &rows);
  PickAxis(rng, ld.cols, ld.inner_cols, aligned, &dc, &cols);
  PickAxis(rng, ls.rows, ls.inner_rows, aligned, &sr, &rows2);
  PickAxis(rng, ls.cols, ls.inner_cols, aligned, &sc, &cols2);
  rows = rows < rows2 ? rows : rows2;
  cols = cols < cols2 ? cols : cols2;
  const std::vector<char> src_before = src;
  pto::CopyRegion(ld, fast.data(), dr, dc, ls, src.data(), sr, sc, rows, cols, size);
  CopyByElements(ld, ref.data(), dr, dc, ls, src.data(), sr, sc, rows, cols, size);
  if (fast != ref)
    fail_msg("size %zu: %ux%u (box %ux%u, col_major %d, box kind %d) from %ux%u (box %ux%u, "
             "col_major %d, box kind %d), region %llux%llu at dst (%llu, %llu), src (%llu, %llu)",
             size, ld.rows, ld.cols, ld.inner_rows, ld.inner_cols, ld.col_major,
             static_cast<int>(ld.box), ls.rows, ls.cols, ls.inner_rows, ls.inner_cols,
             ls.col_major, static_cast<int>(ls.box), static_cast<unsigned long long>(rows),
             static_cast<unsigned long long>(cols), static_cast<unsigned long long>(dr),
             static_cast<unsigned long long>(dc), static_cast<unsigned long long>(sr),
             static_cast<unsigned long long>(sc));
  assert_true(src == src_before);
}

// Every pair of layouts, every element size, aligned and unaligned
// regions; whole images of one layout too (the single-copy path).
void RegionsMatchTheDefinition() {
  Rng rng;
  const size_t sizes[] = {1, 2, 4, 8};
  for (size_t size : sizes) {
    const std::vector<Layout> dsts = Layouts(size, 3, 2), srcs = Layouts(size, 2, 3);
    for (const Layout& ld : dsts)
      for (const Layout& ls : srcs)
        for (int trial = 0; trial < 6; ++trial) CheckOne(rng, ld, ls, size, trial % 2 == 0);
    for (const Layout& l : dsts) {
      std::vector<char> src(ImageBytes(l, size)), dst(ImageBytes(l, size), 0);
      for (char& c : src) c = static_cast<char>(rng.Next());
      pto::CopyRegion(l, dst.data(), l, src.data(), 0, 0, l.rows, l.cols, size);
      assert_true(dst == src);
    }
  }
}

// Row-major regions of a longer pitch (a view's rows in global memory, as
// tload and tstore pass them) into and out of every layout.
void PitchedRows() {
  Rng rng;
  const size_t sizes[] = {1, 2, 4, 8};
  for (size_t size : sizes)
    for (const Layout& l : Layouts(size, 2, 2))
      for (int trial = 0; trial < 8; ++trial) {
        const Layout g = pto::RowMajorLayout(l.rows, l.cols + rng.Below(40));
        CheckOne(rng, l, g, size, trial % 2 == 0);
        CheckOne(rng, g, l, size, trial % 2 == 0);
      }
}

// FillRegion against each element set alone, on every layout and size,
// the bytes outside the region kept.
void test_fill_matches_the_definition(void**) {
  Rng rng;
  const size_t sizes[] = {1, 2, 4, 8};
  for (size_t size : sizes)
    for (const Layout& l : Layouts(size, 3, 2))
      for (int trial = 0; trial < 6; ++trial) {
        std::vector<char> fast(ImageBytes(l, size));
        for (char& c : fast) c = static_cast<char>(rng.Next());
        std::vector<char> ref = fast;
        const uint64_t value = rng.Next();
        uint64_t r, c, rows, cols;
        PickAxis(rng, l.rows, l.inner_rows, trial % 2 == 0, &r, &rows);
        PickAxis(rng, l.cols, l.inner_cols, trial % 2 == 0, &c, &cols);
        pto::FillRegion(l, fast.data(), r, c, rows, cols, &value, size);
        for (uint64_t i = 0; i < rows; ++i)
          for (uint64_t j = 0; j < cols; ++j)
            memcpy(ref.data() + pto::ElementOffset(l, r + i, c + j) * size, &value, size);
        assert_true(fast == ref);
      }
}

// Both checks on every SIMD target libpto was built for and this CPU runs.
void test_regions_on_every_target(void**) {
  for (size_t t = 0; t < targets_count(); ++t) {
    targets_select(targets_at(t));
    RegionsMatchTheDefinition();
    PitchedRows();
  }
  targets_select(0);
}

// ForEachViewRowGroup's groups, expanded row by row, are ForEachViewRow's
// rows: views of rank 1 to 5 with random shapes and strides (negative and
// zero among them), over fewer, as many and more rows than the view holds.
void test_view_row_groups(void**) {
  Rng rng;
  for (int trial = 0; trial < 500; ++trial) {
    pto::program::View v{};
    v.rank = 1 + static_cast<uint32_t>(rng.Below(5));
    v.offset = static_cast<int64_t>(rng.Below(1000));
    int64_t total = 1;
    for (uint32_t i = 0; i < v.rank; ++i) {
      v.shape[i] = 1 + static_cast<int64_t>(rng.Below(5));
      v.strides[i] = static_cast<int64_t>(rng.Below(200)) - 50;
      if (i + 1 < v.rank) total *= v.shape[i];
    }
    const int64_t rows = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(total) + 3));
    std::vector<int64_t> want, got;
    pto::program::ForEachViewRow(v, rows, [&](int64_t r, int64_t element, int64_t) {
      want.push_back(r);
      want.push_back(element);
    });
    pto::program::ForEachViewRowGroup(
        v, rows, [&](int64_t r, int64_t element, int64_t count, int64_t stride) {
          assert_true(count >= 1);
          for (int64_t i = 0; i < count; ++i) {
            got.push_back(r + i);
            got.push_back(element + i * stride);
          }
        });
    assert_true(want == got);
  }
}

}  // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_regions_on_every_target),
      cmocka_unit_test(test_fill_matches_the_definition),
      cmocka_unit_test(test_view_row_groups),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
