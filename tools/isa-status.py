#!/usr/bin/env python3
"""The status of every instruction name of pto-isa in libpto: docs/isa-status.md.

  isa-status.py --write    writes docs/isa-status.md
  isa-status.py --check    fails when docs/isa-status.md differs from what --write
                           would write, when a name of tools/isa-names.txt has
                           neither an implementation nor a documented refusal,
                           when a refusal is listed for a name that is
                           implemented, or when a program-level form named
                           below is absent from src/program/parse

A name is implemented by a row of src/operations.def (its C function and its
text form; ROW_NAMES where the page's name or the text form is not the row's),
by a setting of src/settings.def (its C function; its text form
where programs have one), by a C function bound by hand (gen-operations.py's
HAND_BOUND), or by a form that only programs have (PROGRAM_FORMS: no tile result, or the
program's memory and cores), or by a per-thread setting of the C API
(C_SETTINGS: SETHF32MODE, SETTF32MODE). Every other name is in REFUSED with the reason,
which is what a program that uses it is told.
"""

import argparse
import importlib.util
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
NAMES = ROOT / "tools" / "isa-names.txt"
OUT = ROOT / "docs" / "isa-status.md"
PARSE_DIR = ROOT / "src" / "program" / "parse"
TESTS_DIR = ROOT / "tests"

spec = importlib.util.spec_from_file_location("gen_operations", ROOT / "tools" / "gen-operations.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

# Rows whose pto-isa name is not their UPPER column, and the text form
# programs read for them: a NoText row's own form (the parser's), or the
# row's mnemonic dotted as PTOAS spells it (pto.tquant.mx for tquant_mx,
# which the table's reader takes): the page's name -> (UPPER, text form).
ROW_NAMES = {
    "TQUANT_DN": ("TQUANT_MX", "pto.tquant.mx"),
}

# Instructions that programs have without a row: the text form(s) the parser
# reads (each must occur in src/program/parse) and what it does.
PROGRAM_FORMS = {
    "TLOAD": (["pto.tload"], "global memory to a tile, a tensor view's window (pad fill as tfillpad)"),
    "TSTORE": (["pto.tstore"], "a tile to global memory (the cube's acc tiles converted on the way)"),
    "TASSIGN": (["pto.tassign"], "a tile placed at an address of its memory"),
    "TPRINT": (["pto.tprint"], "a tile's valid region printed"),
    "SYNCALL": (["pto.syncall"], "a barrier of the launch's blocks"),
    "TPREFETCH_ASYNC": (["pto.tprefetch_async"], "accepted; its session's wait returns at once"),
    "TSTORE_FP": (["pto.tstore"], "an acc tile to global memory through the fixpipe's quantisation "
                  "by a scaling tile (`ins(%acc : T fp %fp : F)`)"),
    "TPREFETCH": (["pto.tprefetch"], "a hint: the view and tile checked, dst left as it is (loads are synchronous)"),
    "TSYNC": (["pto.tsync"], "a wait on events: its operands checked, nothing to wait for (each instruction completes)"),
    "TSUBVIEW": (["pto.subview"], "a tile's window as a tile"),
    "TGET_SCALE_ADDR": (["pto.tget_scale_addr"], "binds an MX scale tile to its left or right tile: "
                        "checked, nothing moved (each scale tile keeps its own bytes)"),
    "TALLOC": (["pto.talloc_to_aiv", "pto.talloc_to_aic"], "a pipe's slot reserved (cube-vector pipes)"),
    "TPUSH": (["pto.tpush_to_aiv", "pto.tpush_to_aic"], "a tile pushed into a cube-vector pipe"),
    "TPOP": (["pto.tpop_from_aiv", "pto.tpop_from_aic"], "a tile popped from a cube-vector pipe"),
    "TFREE": (["pto.tfree_from_aiv", "pto.tfree_from_aic"], "a popped slot released"),
    # Multi-card: one process is one card (libpto-mpi carries them between ranks).
    "COMM:TPUT": (["pto.comm.tput"], "a tile's bytes into a peer's window (plain or atomic add)"),
    "COMM:TGET": (["pto.comm.tget"], "a peer's window into global memory through a tile"),
    "COMM:TNOTIFY": (["pto.comm.tnotify"], "a peer's i32 signal set or atomically added"),
    "COMM:TWAIT": (["pto.comm.twait"], "waits until a signal compares true (a time limit ends it)"),
    "COMM:TTEST": (["pto.comm.ttest"], "whether a signal compares true, without waiting"),
    "COMM:TBROADCAST": (["pto.comm.tbroadcast"], "the root's data into every member's window"),
    "COMM:TSCATTER": (["pto.comm.tscatter"], "the root's row blocks, one to each member"),
    "COMM:TGATHER": (["pto.comm.tgather"], "every member's block into the root's"),
    "COMM:TREDUCE": (["pto.comm.treduce"], "the members' data reduced into the root's, pto-isa's order"),
    "COMM:TPUT_ASYNC": (["pto.comm.tput_async"], "tput in an async session (complete at once)"),
    "COMM:TGET_ASYNC": (["pto.comm.tget_async"], "tget in an async session (complete at once)"),
}

# Instructions that are a per-thread setting of the C API, outside the table
# (no tile operands; PTOAS has no op, so programs have no text form): the C
# function (each must be declared in include/pto_c.h) and what it does.
C_SETTINGS = {
    "SETHF32MODE": ("pto_set_hf32_mode", "a per-thread cube mode: FLOAT32 matrix-multiply inputs in HF32 "
                    "(e8m11) under A2A3; no text form (PTOAS has none)"),
    "SETTF32MODE": ("pto_set_tf32_mode", "a per-thread cube mode: FLOAT32 matrix-multiply inputs in TF32 "
                    "(e8m10) under A5; no text form (PTOAS has none)"),
}

FORMATS = "needs the low-precision formats (FP8, HiFloat8, FP4, MX scales): not implemented yet"
PENDING = "not implemented yet: programs are told the instruction is not implemented"

# The names without an implementation, each with the reason (the text a user reads here).
REFUSED = {}


def read_names():
    names = []
    for line in NAMES.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, where = line.split()
        names.append((name, where.split(",")))
    return names


def test_files(words):
    """The files under tests/ that name any of words (a C function or a text form)."""
    found = []
    for path in sorted(TESTS_DIR.rglob("*")):
        if path.suffix not in (".c", ".cc", ".h", ".py", ".pto", ".sh") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        if any(re.search(re.escape(w) + r"\b", text) for w in words):
            found.append(str(path.relative_to(TESTS_DIR)))
    return found


def dtype_counts(op):
    def count(names):
        n = 0
        for d in names:
            n += {"ALL": 9, "FLOAT": 3, "NONE": 0}.get(d, 1)
        return n
    return " / ".join(str(count(op.dtypes[p])) for p in gen.PROFILES)


def statuses(problems):
    ops = {op.upper: op for op in gen.parse(ROOT / "src" / "operations.def")}
    hand = {(h.isa or h.mnemonic.upper()): h for h in gen.HAND_BOUND}
    settings = {st.upper: st for st in gen.parse_settings()}
    parse_text = "\n".join(p.read_text() for p in sorted(PARSE_DIR.glob("*.cc")))
    header_text = (ROOT / "include" / "pto_c.h").read_text()
    rows = []
    for name, where in read_names():
        upper, own_text = ROW_NAMES.get(name, (name, ""))
        op = ops.get(upper)
        if op is not None:
            kind = "row" if op.family == "Special" else f"row ({op.family} family)"
            text = own_text or ("" if "NoText" in op.traits else "pto." + op.mnemonic)
            dotted = own_text == "pto." + op.mnemonic.replace("_", ".") and "NoText" not in op.traits
            if own_text and not dotted and f'"{own_text}' not in parse_text:
                problems.append(f"{name}: its text form {own_text} is not in src/program/parse")
            if not text:
                kind += "; no text form (PTOAS has none)"
            tests = test_files([op.cname + "(", "OP_" + op.upper] + ([text] if text else []))
            rows.append((name, "implemented", op.cname, text,
                         dtype_counts(op), kind, len(tests) if op.family == "Special" else
                         f"family loops + {len(tests)}"))
        elif name in hand:
            h = hand[name]
            text = "" if h.text == "-" else h.text or "pto." + h.mnemonic
            tests = test_files(["pto_" + h.mnemonic + "("] + ([text] if text else []))
            rows.append((name, "implemented", "pto_" + h.mnemonic, text, h.counts,
                         "bound by hand: " + h.why + ("" if text else "; no text form (PTOAS has none)"),
                         len(tests)))
        elif name in settings:
            st = settings[name]
            text = "pto." + st.mnemonic if st.text == "Pipe" else ""
            tests = test_files([st.cname + "("] + ([text] if text else []))
            rows.append((name, "implemented", st.cname, text, "",
                         "a setting (src/settings.def)" + (", the pipes' per-id form" if text else
                                                         "; no text form (PTOAS has none)"),
                         len(tests)))
        elif name in PROGRAM_FORMS:
            forms, what = PROGRAM_FORMS[name]
            for form in forms:
                if f'"{form}' not in parse_text:
                    problems.append(f"{name}: its text form {form} is not in src/program/parse")
            tests = test_files(forms)
            rows.append((name, "programs", "", ", ".join(forms), "all", what, len(tests)))
        elif name in C_SETTINGS:
            cfun, what = C_SETTINGS[name]
            if not re.search(rf"\bPTO_API\b[^;]*\b{cfun}\(", header_text):
                problems.append(f"{name}: {cfun} is not declared in include/pto_c.h")
            tests = test_files([cfun + "("])
            rows.append((name, "implemented", cfun, "", "", what, len(tests)))
        elif name in REFUSED:
            rows.append((name, "refused", "", "", "", REFUSED[name], ""))
        else:
            problems.append(f"{name}: no row, no C function, no program form and no refusal listed "
                            "in tools/isa-status.py")
        if name in REFUSED and (op is not None or name in hand or name in settings or
                                name in PROGRAM_FORMS or name in C_SETTINGS):
            problems.append(f"{name}: implemented, but tools/isa-status.py's REFUSED still lists it")
    for name in REFUSED:
        if name not in dict(read_names()):
            problems.append(f"{name}: REFUSED lists a name tools/isa-names.txt does not have")
    return rows


def render(rows):
    done = sum(1 for r in rows if r[1] != "refused")
    lines = [
        "# Every instruction of pto-isa in libpto",
        "",
        "Generated by `tools/isa-status.py` from `tools/isa-names.txt` (every instruction name",
        "of pto-isa 3186c381: its pages, `docs/isa/manifest.yaml` and `pto_instr.hpp`),",
        "`src/operations.def` and the parser's forms; a core test (`isa status`) fails when a",
        "name has neither an implementation nor a listed refusal. Do not edit.",
        "",
        f"{done} of {len(rows)} names are implemented; {len(rows) - done} are refused, each with",
        "its reason. Dtypes: how many element types dst takes under HOST / A2A3 / A5 (the lists:",
        "[operations.md](operations.md)); tests: the files under `tests/` that name the C function",
        "or the text form (a family row is also run by its family's generic loops).",
        "",
        "| instruction | status | C function | text form | dtypes | how | tests |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, status, cfun, text, dtypes, how, tests in rows:
        cell = lambda s: f"`{s}`" if s else ""
        lines.append(f"| {name} | {status} | {cell(cfun)} | {cell(text)} | {dtypes} | {how} | {tests} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args()
    problems = []
    text = render(statuses(problems))
    if args.write:
        OUT.write_text(text)
    elif not OUT.exists() or OUT.read_text() != text:
        problems.append(f"{OUT.relative_to(ROOT)} differs from what tools/isa-status.py --write writes")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
