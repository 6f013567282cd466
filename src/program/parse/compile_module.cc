// PTO assembly: the file and module structure, the snippet directives, and
// the dispatch of one operation to its parser.
#include <stdlib.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "program/parse/compiler.h"

namespace pto {
namespace program {

void Compiler::ParseFile() {
  OpenScope();
  bool saw_module = false, saw_op = false;
  while (ok() && tok_.kind != Tok::kEnd) {
    if (saw_module) {
      Error(tok_.loc, "a module must hold the whole program: " + Describe(tok_) + " after it");
      break;
    }
    if (tok_.kind == Tok::kType && Peek().Is('=')) {
      ParseAlias();
    } else if (tok_.IsIdent("module")) {
      if (!funcs_.empty() || saw_op) {
        Error(tok_.loc, "a module must hold the whole program");
        break;
      }
      ParseModule();
      saw_module = true;
    } else if (tok_.IsIdent("func.func")) {
      if (saw_op) {
        Error(tok_.loc, "a func.func after operations outside it");
        break;
      }
      ParseFuncSignature();
    } else {
      if (!funcs_.empty()) {
        Error(tok_.loc, "operation outside a func.func: " + Describe(tok_));
        break;
      }
      saw_op = true;
      if (tok_.kind == Tok::kDirective) {
        ParseDirective();
      } else {
        const SourceLoc at = tok_.loc;
        ParseOperation();
        if (ok() && yield_.seen) Error(at, "scf.yield or scf.condition outside a region");
      }
    }
  }
  if (ok() && funcs_.empty() && !saw_op)
    Error(tok_.loc, saw_module ? "the module holds no func.func" : "the text holds no operation");
  const FuncInfo* entry = nullptr;
  if (ok() && !funcs_.empty() && ChooseEntry(&entry)) CompileEntry(*entry);
  if (ok() && !later_error_.empty()) Error(later_loc_, later_error_);
  if (ok() && !pending_addr_.empty()) {
    const auto& first = *pending_addr_.begin();
    Error(pending_loc_[first.first],
          "pto.tassign places %" + first.first + ", which no operation uses");
  }
}

void Compiler::ParseAlias() {
  const Token name = tok_;
  Advance();
  Expect('=');
  Type t;
  if (!ParseType(&t)) return;
  if (aliases_.count(std::string(name.text)) != 0) {
    Error(name.loc, "type alias " + std::string(name.text) + " is defined twice");
    return;
  }
  aliases_.emplace(std::string(name.text), t);
}

bool Compiler::SetTarget(const AttrEntry& e) {
  if (e.value.kind != Tok::kString)
    return Error(e.loc, "pto.target_arch takes a string (\"a3\", \"a2a3\" or \"a5\")");
  pto_profile target;
  if (e.value.text == "a3" || e.value.text == "a2a3" || e.value.text == "a2") {
    target = PTO_PROFILE_A2A3;
  } else if (e.value.text == "a5") {
    target = PTO_PROFILE_A5;
  } else {
    return Error(e.value.loc, "pto.target_arch \"" + std::string(e.value.text) +
                                  "\" is not a known target (\"a3\", \"a2a3\", \"a5\")");
  }
  if (p_->profile != PTO_PROFILE_HOST && p_->profile != target)
    return Error(e.value.loc, std::string("pto.target_arch \"") + std::string(e.value.text) +
                                  "\" differs from the profile " + pto_profile_string(p_->profile) +
                                  " the program is created under");
  p_->profile = target;
  return true;
}

void Compiler::ParseModule() {
  Advance();
  if (tok_.kind == Tok::kSymbol) Advance();
  if (tok_.IsIdent("attributes")) {
    Advance();
    std::vector<AttrEntry> attrs;
    if (!ParseAttrDict(&attrs)) return;
    for (const AttrEntry& e : attrs) {
      if (e.key == "pto.target_arch") {
        if (!SetTarget(e)) return;
      } else if (e.key == "pto.kernel_kind") {
        // A block is one core: a vector kernel runs on the vector core, a
        // cube kernel on the cube.
        if (e.value.text != "#pto.kernel_kind<vector>" && e.value.text != "#pto.kernel_kind<cube>") {
          Error(e.loc, "pto.kernel_kind must be #pto.kernel_kind<vector> or <cube>");
          return;
        }
      } else if (e.key == "pto.device-spec") {
        // The SoC names PTOAS's tests use: Ascend910* (A2/A3), Ascend950* (A5).
        const bool a2a3 = e.value.text.substr(0, 9) == "Ascend910";
        const bool a5 = e.value.text.substr(0, 9) == "Ascend950";
        if (e.value.kind != Tok::kString || !(a2a3 || a5)) {
          Error(e.loc, "pto.device-spec \"" + std::string(e.value.text) +
                           "\" is not known (Ascend910* is A2A3, Ascend950* A5; use "
                           "pto.target_arch otherwise)");
          return;
        }
        AttrEntry as_target = e;
        as_target.value.text = a2a3 ? "a2a3" : "a5";
        if (!SetTarget(as_target)) return;
      } else {
        Error(e.loc, "unknown module attribute '" + std::string(e.key) + "'");
        return;
      }
    }
  }
  if (!Expect('{')) return;
  while (ok() && !tok_.Is('}')) {
    if (tok_.kind == Tok::kType && Peek().Is('=')) {
      ParseAlias();
    } else if (tok_.IsIdent("func.func")) {
      ParseFuncSignature();
    } else {
      Error(tok_.loc, "expected func.func in the module, found " + Describe(tok_));
      return;
    }
  }
  Expect('}');
}

// .arg %a : T   and   .const %c = 0 : index
void Compiler::ParseDirective() {
  const Token d = tok_;
  Advance();
  Token name;
  if (d.text == ".arg") {
    if (!ExpectValueName(&name) || !Expect(':')) return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (t.kind != TypeKind::kTile) {
      Error(type_loc, ".arg declares tiles only here");
      return;
    }
    if (Lookup(name.text) != nullptr) {
      Error(name.loc, "%" + std::string(name.text) + " is defined twice");
      return;
    }
    uint32_t slot;
    if (!UseTile(name, t, type_loc, Use::kRead, &slot)) return;
    p_->tiles[slot].used = false;
  } else if (d.text == ".const") {
    if (!ExpectValueName(&name) || !Expect('=')) return;
    ParseConstantValue(name);
  } else {
    Error(d.loc, "unknown directive '" + std::string(d.text) + "' (.arg, .const)");
  }
}

void Compiler::ParseOperation() {
  std::vector<Token> results;
  if (tok_.kind == Tok::kValue) {
    for (;;) {
      const Token name = tok_;
      Advance();
      if (tok_.Is(':')) {
        // %r:2 = ...: results %r#0 and %r#1.
        Advance();
        if (tok_.kind != Tok::kInt || tok_.text[0] == '-' || tok_.text.size() > 3) {
          Error(tok_.loc, "expected the number of results after '%" + std::string(name.text) +
                              ":', found " + Describe(tok_));
          return;
        }
        const int count = atoi(std::string(tok_.text).c_str());
        Advance();
        for (int i = 0; i < count; ++i)
          results.push_back(SyntheticName(std::string(name.text) + "#" + std::to_string(i),
                                          name.loc));
      } else {
        results.push_back(name);
      }
      if (!tok_.Is(',')) break;
      Advance();
      if (tok_.kind != Tok::kValue) {
        Error(tok_.loc, "expected a %name, found " + Describe(tok_));
        return;
      }
    }
    if (!Expect('=')) return;
  }
  if (!ok()) return;
  if (tok_.kind != Tok::kIdent) {
    Error(tok_.loc, "expected an operation, found " + Describe(tok_));
    return;
  }
  const Token op = tok_;
  const std::string_view name = op.text;
  Advance();
  op_name_ = std::string(name);
  boxed_vec_ok_ = name == "pto.tmov" || name == "tmov" || name.substr(0, 12) == "pto.tpush_to" ||
                  name.substr(0, 13) == "pto.tpop_from";
  auto want_results = [&](size_t n) {
    if (results.size() == n) return true;
    return Error(op.loc, std::string(name) + " defines " + std::to_string(n) + " result" +
                             (n == 1 ? "" : "s") + ", not " + std::to_string(results.size()));
  };
  if (name == "func.call" || name == "call") {
    ParseCall(op, results);
  } else if (name == "arith.constant") {
    if (want_results(1)) ParseConstantValue(results[0]);
  } else if (name.substr(0, 6) == "arith.") {
    if (want_results(1)) ParseArith(op, results[0]);
  } else if (name == "builtin.unrealized_conversion_cast") {
    if (want_results(1)) ParseUnrealizedCast(results[0]);
  } else if (name == "scf.for") {
    ParseFor(op, results);
  } else if (name == "scf.if") {
    ParseIf(op, results);
  } else if (name == "scf.while") {
    ParseWhile(op, results);
  } else if (name == "scf.yield" || name == "scf.condition") {
    if (want_results(0)) ParseYield(op);
  } else if (name == "pto.section.vector" || name == "pto.section.cube") {
    // A core's code: a block runs its sections in program order, or, with
    // pipes between them, each on its core (compile_pipes.cc).
    if (!want_results(0)) return;
    uint32_t at;
    uint8_t outer_core;
    if (!BeginSection(name == "pto.section.cube" ? CoreKind::kCube : CoreKind::kVector, op.loc,
                      std::string(name), &at, &outer_core))
      return;
    const Yield outer = yield_;
    ParseRegion();
    if (ok() && yield_.seen)
      return (void)Error(yield_.loc, std::string(name) + " has no terminator");
    yield_ = outer;
    EndSection(at, outer_core);
  } else if (name == "pto.reserve_buffer" || name == "pto.import_reserved_buffer" ||
             name == "pto.aic_initialize_pipe" || name == "pto.aiv_initialize_pipe" ||
             name.substr(0, 12) == "pto.tpush_to" || name.substr(0, 13) == "pto.tpop_from" ||
             name.substr(0, 14) == "pto.tfree_from" || name.substr(0, 13) == "pto.talloc_to") {
    ParsePipeOp(op, results);
  } else if (name == "pto.load_scalar" || name == "pto.store_scalar") {
    ParseScalarAccess(op, results);
  } else if (name == "pto.addptr") {
    if (want_results(1)) ParseAddPtr(op, results);
  } else if (name == "pto.declare_local_array") {
    if (want_results(1)) ParseDeclareLocalArray(op, results);
  } else if (name == "pto.local_array_get" || name == "pto.local_array_set") {
    ParseLocalArrayAccess(op, results);
  } else if (name == "pto.tgetval") {
    ParseGetVal(op, results);
  } else if (name == "pto.barrier" || name == "pto.barrier_sync" || name == "pto.set_flag" ||
             name == "pto.wait_flag" || name == "pto.record_event" ||
             name == "pto.wait_event" || name == "pto.sync.set" || name == "pto.sync.wait" ||
             name == "pto.pipe_barrier" || name == "pto.set_intra_block" ||
             name == "pto.wait_intra_block") {
    if (want_results(0)) ParseSync(op);
  } else if (name == "pto.get_buf" || name == "pto.rls_buf" || name == "pto.get_buf_dyn" ||
             name == "pto.rls_buf_dyn") {
    if (want_results(0)) ParseBufferToken(op);
  } else if (name == "pto.cmo.cacheinvalid") {
    if (want_results(0)) ParseCacheInvalid(op);
  } else if (name == "pto.fence.barrier_all") {
    if (want_results(0)) ParseFence(op);
  } else if (name == "pto.syncall") {
    if (want_results(0)) ParseSyncAll(op);
  } else if (name == "pto.tprint") {
    if (want_results(0)) ParsePrint(op);
  } else if (name == "pto.tquant.mx") {
    Error(op.loc, "pto.tquant.mx is not implemented: it quantises into an MX format (MXFP8 or "
                  "MXFP4_E2M1, float8 or float4 elements sharing an e8m0 scale per block), and "
                  "float8 (f8E4M3FN, f8E5M2, e8m0) and MX matmuls are not supported");
  } else if (name == "pto.make_prefetch_async_context" || name == "pto.tprefetch_async" ||
             name == "pto.get_prefetch_async_session" || name == "pto.comm.wait_async_event") {
    // The wait on a prefetch's event is single-card (a prefetch session's).
    if (want_results(1)) ParsePrefetch(op, results[0]);
  } else if (name.substr(0, 9) == "pto.comm.") {
    // PTOAS's comm dialect moves tiles between cards (NPUs) and signals
    // across them: a program here runs the blocks of one card.
    Error(op.loc, std::string(name) + ": multi-card communication is not implemented (a "
                                      "program runs the blocks of one card)");
  } else if (name == "pto.get_block_idx" || name == "pto.get_block_num" ||
             name == "pto.get_subblock_idx" || name == "pto.get_subblock_num") {
    if (want_results(1)) ParseBlockQuery(op, results[0]);
  } else if (name == "pto.make_tensor_view") {
    if (want_results(1)) ParseMakeView(op, results[0]);
  } else if (name == "pto.partition_view") {
    if (want_results(1)) ParsePartitionView(op, results[0]);
  } else if (name == "pto.tload" || name == "pto.tstore") {
    if (want_results(0)) ParseLoadStore(op, name == "pto.tload");
  } else if (name == "pto.alloc_tile") {
    if (want_results(1)) ParseAllocTile(op, results[0]);
  } else if (name == "memref.alloc") {
    // PTOAS's older form of an alloc_tile: memref.alloc() : memref<RxCxT,
    // #pto.address_space<vec>>.
    if (want_results(1) && Expect('(') && Expect(')')) ParseAllocTile(op, results[0]);
  } else if (name == "pto.subset") {
    if (want_results(1)) ParseSubset(op, results[0], false);
  } else if (name == "pto.subview") {
    ParseSubview(op, results);
  } else if (name == "pto.set_validshape") {
    if (want_results(0)) ParseSetValidShape(op);
  } else if (name == "pto.tassign") {
    if (results.size() <= 1) ParseTassign(op, results);
    else want_results(1);
  } else {
    const bool prefixed = name.substr(0, 4) == "pto.";
    const std::string_view mnemonic = prefixed ? name.substr(4) : name;
    const ops::OpDescriptor* desc = ops::FindOp(mnemonic.data(), mnemonic.size());
    // PTOAS's dotted spellings of the table's underscored names
    // (tmatmul.acc, tmatmul.bias).
    if (desc == nullptr && mnemonic.find('.') != std::string_view::npos) {
      std::string underscored(mnemonic);
      for (char& ch : underscored)
        if (ch == '.') ch = '_';
      desc = ops::FindOp(underscored.data(), underscored.size());
    }
    if (mnemonic == "tsel") return ParseTsel(op, results);
    if (mnemonic == "tmrgsort" && IsMrgSortLists(results)) return ParseMrgSortLists(op, results);
    if (desc == nullptr) {
      // PTO's instructions are the t* operations (pto-isa docs/isa/T*.md).
      if (prefixed && mnemonic.size() > 1 && mnemonic[0] == 't')
        Error(op.loc, "instruction '" + std::string(name) + "' is not implemented");
      else
        Error(op.loc, "operation '" + std::string(name) + "' is not supported");
      return;
    }
    if (ops::HasTrait(*desc, PTO_TRAIT_Cube)) {
      if (want_results(0)) ParseMatmul(op, *desc);
      return;
    }
    if (prefixed && tok_.IsIdent("ins")) {
      if (want_results(0)) ParseDpsTileOp(op, *desc);
    } else if (results.empty()) {
      Error(op.loc, std::string(name) +
                        (prefixed ? " needs ins(...) outs(...) or a %result" : " needs a %result"));
    } else if (want_results(1)) {
      ParseSsaTileOp(op, *desc, results[0]);
    }
  }
}

}  // namespace program
}  // namespace pto
