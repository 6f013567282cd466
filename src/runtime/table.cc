// The kernel table: its text format (pto_runtime.h) and the `dims`
// expressions.
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include <stdio.h>

#include "runtime.h"

namespace pto_host {

namespace {

// Recursive descent over the `dims` grammar: expr := term (('+'|'-') term)*,
// term := factor (('*'|'/') factor)*, factor := INT | shape(T,D) | (expr).
class DimParser {
public:
    DimParser(const std::string &text, DimExpr *out) : s_(text), out_(out) {}

    bool Parse(std::string *error) {
        if (!Expr() || pos_ != s_.size()) {
            *error = error_.empty() ? Format("unexpected '%c' at %zu", s_[pos_], pos_ + 1) : error_;
            return false;
        }
        return true;
    }

private:
    bool Expr() {
        if (!Term()) return false;
        while (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) {
            const DimExpr::Kind k = s_[pos_++] == '+' ? DimExpr::kAdd : DimExpr::kSub;
            if (!Term()) return false;
            out_->steps.push_back({k, 0, 0});
        }
        return true;
    }
    bool Term() {
        if (!Factor()) return false;
        while (pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == '/')) {
            const DimExpr::Kind k = s_[pos_++] == '*' ? DimExpr::kMul : DimExpr::kDiv;
            if (!Factor()) return false;
            out_->steps.push_back({k, 0, 0});
        }
        return true;
    }
    bool Factor() {
        if (pos_ >= s_.size()) return Error("the expression ends early");
        if (s_[pos_] == '(') {
            pos_++;
            if (!Expr()) return false;
            if (pos_ >= s_.size() || s_[pos_] != ')') return Error("a ')' is missing");
            pos_++;
            return true;
        }
        if (s_.compare(pos_, 6, "shape(") == 0) {
            pos_ += 6;
            uint64_t tensor = 0, dim = 0;
            if (!Number(&tensor) || !Expect(',') || !Number(&dim) || !Expect(')')) return false;
            if (tensor >= static_cast<uint64_t>(MAX_TENSOR_ARGS) || dim >= static_cast<uint64_t>(MAX_TENSOR_DIMS))
                return Error("shape(T,D) with T above 31 or D above 4");
            out_->steps.push_back({DimExpr::kShape, static_cast<int64_t>(tensor), static_cast<uint32_t>(dim)});
            return true;
        }
        uint64_t v = 0;
        if (!Number(&v)) return false;
        if (v > static_cast<uint64_t>(INT64_MAX)) return Error("an integer above 2^63 - 1");
        out_->steps.push_back({DimExpr::kConst, static_cast<int64_t>(v), 0});
        return true;
    }
    bool Number(uint64_t *v) {
        if (pos_ >= s_.size() || !isdigit(static_cast<unsigned char>(s_[pos_])))
            return Error(pos_ < s_.size() ? Format("a number expected at %zu", pos_ + 1) : "a number is missing");
        uint64_t n = 0;
        while (pos_ < s_.size() && isdigit(static_cast<unsigned char>(s_[pos_]))) {
            const uint64_t d = static_cast<uint64_t>(s_[pos_++] - '0');
            if (n > (UINT64_MAX - d) / 10) return Error("an integer that does not fit 64 bits");
            n = n * 10 + d;
        }
        *v = n;
        return true;
    }
    bool Expect(char c) {
        if (pos_ >= s_.size() || s_[pos_] != c) return Error(Format("'%c' expected at %zu", c, pos_ + 1));
        pos_++;
        return true;
    }
    bool Error(const std::string &e) {
        if (error_.empty()) error_ = e;
        return false;
    }

    const std::string &s_;
    DimExpr *out_;
    size_t pos_ = 0;
    std::string error_;
};

bool ParseId(const std::string &s, int32_t *id) {
    char *end = nullptr;
    errno = 0;
    const long v = strtol(s.c_str(), &end, 10);
    if (errno != 0 || end == s.c_str() || *end != '\0' || v < 0 || v > INT32_MAX) return false;
    *id = static_cast<int32_t>(v);
    return true;
}

}  // namespace

bool ReadFile(const std::string &path, std::string *text) {
    FILE *f = fopen(path.c_str(), "rb");
    if (f == nullptr) return false;
    text->clear();
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text->append(buf, n);
    const bool ok = ferror(f) == 0;
    fclose(f);
    return ok;
}

bool WriteFile(const std::string &path, const std::string &text) {
    FILE *f = fopen(path.c_str(), "wb");
    if (f == nullptr) return false;
    const bool ok = fwrite(text.data(), 1, text.size(), f) == text.size();
    return fclose(f) == 0 && ok;
}

std::vector<std::string> Words(const std::string &text) {
    std::vector<std::string> words;
    size_t at = 0;
    while (at < text.size()) {
        while (at < text.size() && isspace(static_cast<unsigned char>(text[at]))) at++;
        const size_t start = at;
        while (at < text.size() && !isspace(static_cast<unsigned char>(text[at]))) at++;
        if (at > start) words.push_back(text.substr(start, at - start));
    }
    return words;
}

std::vector<std::string> Lines(const std::string &text) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

bool ParseDimExpr(const std::string &text, DimExpr *out, std::string *error) {
    DimExpr e;
    e.text = text;
    DimParser p(text, &e);
    if (!p.Parse(error)) return false;
    *out = std::move(e);
    return true;
}

bool EvalDimExpr(const DimExpr &expr, const ChipTensor *const *tensors, int32_t count, int64_t *value,
                 std::string *error) {
    std::vector<int64_t> stack;
    for (const DimExpr::Step &s : expr.steps) {
        if (s.kind == DimExpr::kConst) {
            stack.push_back(s.value);
            continue;
        }
        if (s.kind == DimExpr::kShape) {
            if (s.value >= count || s.dim >= tensors[s.value]->ndims) {
                *error = Format("%s: the task has no tensor %lld with a dimension %u", expr.text.c_str(),
                                static_cast<long long>(s.value), s.dim);
                return false;
            }
            stack.push_back(tensors[s.value]->shapes[s.dim]);
            continue;
        }
        const int64_t b = stack.back();
        stack.pop_back();
        const int64_t a = stack.back();
        int64_t r = 0;
        bool overflow = false;
        switch (s.kind) {
        case DimExpr::kAdd: overflow = __builtin_add_overflow(a, b, &r); break;
        case DimExpr::kSub: overflow = __builtin_sub_overflow(a, b, &r); break;
        case DimExpr::kMul: overflow = __builtin_mul_overflow(a, b, &r); break;
        case DimExpr::kDiv:
            if (b == 0 || (a == INT64_MIN && b == -1)) {
                *error = Format("%s divides by zero", expr.text.c_str());
                return false;
            }
            r = a / b;
            break;
        default: break;
        }
        if (overflow) {
            *error = Format("%s overflows 64 bits", expr.text.c_str());
            return false;
        }
        stack.back() = r;
    }
    *value = stack.back();
    return true;
}

pto_status LoadTable(pto_runtime *rt, const std::string &path) {
    std::string text;
    if (!ReadFile(path, &text)) return Fail(PTO_ERR_INVALID_ARGUMENT, "%s: cannot be read", path.c_str());
    const std::vector<std::string> lines = Lines(text);
    for (size_t index = 0; index < lines.size(); index++) {
        const int number = static_cast<int>(index) + 1;
        const std::vector<std::string> w = Words(lines[index].substr(0, lines[index].find('#')));
        if (w.empty()) continue;
        const std::string where = Format("%s:%d", path.c_str(), number);
        pto_status st = PTO_OK;
        if (w[0] == "orchestration" && w.size() == 2) {
            st = pto_runtime_set_orchestration(rt, w[1].c_str());
        } else if (w[0] == "kernel" && (w.size() == 4 || w.size() == 5)) {
            int32_t id = 0;
            if (!ParseId(w[1], &id))
                return Fail(PTO_ERR_INVALID_ARGUMENT, "%s: kernel id '%s' is not an integer in 0..2^31-1",
                            where.c_str(), w[1].c_str());
            st = pto_runtime_add_kernel(rt, id, w[2].c_str(), w[3].c_str(), w.size() == 5 ? w[4].c_str() : nullptr);
        } else if (w[0] == "dims" && w.size() >= 2) {
            int32_t id = 0;
            if (!ParseId(w[1], &id))
                return Fail(PTO_ERR_INVALID_ARGUMENT, "%s: kernel id '%s' is not an integer in 0..2^31-1",
                            where.c_str(), w[1].c_str());
            std::vector<const char *> exprs;
            for (size_t i = 2; i < w.size(); i++) exprs.push_back(w[i].c_str());
            st = pto_runtime_set_kernel_dims(rt, id, exprs.data(), exprs.size());
        } else {
            return Fail(PTO_ERR_INVALID_ARGUMENT,
                        "%s: expected 'orchestration PATH', 'kernel ID aic|aiv PATH [FUNCTION]' or "
                        "'dims ID EXPR...'",
                        where.c_str());
        }
        if (st != PTO_OK) {
            const std::string e = pto_runtime_last_error();
            return Fail(st, "%s: %s", where.c_str(), e.c_str());
        }
    }
    return PTO_OK;
}

}  // namespace pto_host
