// Which bytes a task argument reaches, and when two arguments share one.
#include "graph.h"

#include <algorithm>

namespace pto_host {

namespace {

bool SameGrid(const Access &a, const Access &b) {
    if (!a.box || !b.box || a.ndims != b.ndims || a.element != b.element || a.remainder != b.remainder) return false;
    for (uint32_t i = 0; i < a.ndims; i++)
        if (a.stride[i] != b.stride[i]) return false;
    return true;
}

}  // namespace

Access DescribeView(const ChipTensor &view, uint64_t origin, bool write) {
    Access a;
    a.write = write;
    a.element = get_element_size(view.dtype);
    const uint64_t base = view.buffer.addr + view.start_offset * a.element;
    uint64_t extent = 1, numel = 1;
    for (uint32_t i = 0; i < view.ndims; i++) {
        if (view.shapes[i] == 0) {
            a.lo = a.hi = base;
            return a;
        }
        extent += static_cast<uint64_t>(view.shapes[i] - 1) * view.strides[i];
        numel *= view.shapes[i];
    }
    a.lo = base;
    a.hi = base + extent * a.element;
    a.dense = numel * a.element == a.hi - a.lo;

    // The box: axes by descending stride, the origin's offset from the
    // region's start in that mixed radix.
    uint32_t order[MAX_TENSOR_DIMS];
    for (uint32_t i = 0; i < view.ndims; i++) order[i] = i;
    std::stable_sort(order, order + view.ndims,
                     [&](uint32_t x, uint32_t y) { return view.strides[x] > view.strides[y]; });
    a.ndims = view.ndims;
    uint64_t rest = base - origin;
    bool box = base >= origin;
    for (uint32_t k = 0; k < view.ndims && box; k++) {
        const uint64_t stride = static_cast<uint64_t>(view.strides[order[k]]) * a.element;
        const uint64_t count = view.shapes[order[k]];
        a.stride[k] = stride;
        a.count[k] = count;
        a.first[k] = rest / stride;
        rest %= stride;
        if (k > 0) {
            const uint64_t parent = a.stride[k - 1];
            box = parent % stride == 0 && a.first[k] + count <= parent / stride;
        }
    }
    a.remainder = rest;
    a.box = box && view.ndims > 0 && a.stride[view.ndims - 1] >= a.element;
    return a;
}

bool Overlap(const Access &a, const Access &b) {
    if (a.hi <= b.lo || b.hi <= a.lo) return false;
    if (!SameGrid(a, b)) return true;
    for (uint32_t i = 0; i < a.ndims; i++)
        if (a.first[i] + a.count[i] <= b.first[i] || b.first[i] + b.count[i] <= a.first[i]) return false;
    return true;
}

bool Covers(const Access &a, const Access &b) {
    if (!a.write || b.lo < a.lo || b.hi > a.hi) return false;
    if (a.dense) return true;
    if (!SameGrid(a, b)) return false;
    for (uint32_t i = 0; i < a.ndims; i++)
        if (b.first[i] < a.first[i] || b.first[i] + b.count[i] > a.first[i] + a.count[i]) return false;
    return true;
}

Task::~Task() { pto_args_destroy(args); }

std::string Task::Describe() const {
    std::string s = Where(site) + Format(": task %u", id);
    if (dummy) return s + " (dummy)";
    if (kernel == nullptr) return s;
    s += Format(" (kernel %d", kernel->id);
    if (!kernel->function.empty()) s += " '" + kernel->function + "'";
    s += Format(", %s, %u block%s", kernel->path.c_str(), blocks, blocks == 1 ? "" : "s");
    if (lanes > 1) s += ", 2 vector lanes";
    return s + ")";
}

}  // namespace pto_host
