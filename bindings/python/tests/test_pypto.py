"""pto.pypto, the front end that runs PyPTO programs on libpto, against stand-ins
for PyPTO, pypto-lib's golden package and torch (pypto_stubs.py): the kernel
table it writes, the refusals it says in one line (a missing package, a model
without a golden, a kernel libpto refuses, an API name the host runtime lacks),
and whole runs of a stub program on the host runtime where libpto-runtime is
built."""

from __future__ import annotations

import ctypes
import json
import os
import pathlib
import platform
import shutil
import subprocess
import textwrap
import types

import numpy as np
import pytest

import pto
import pto.pypto as pp
from pto.pypto import _compile, _runtime

import pypto_stubs as stubs


def runtime_or_skip() -> None:
    try:
        _runtime.library()
    except pp.PyptoError as e:
        pytest.skip(f"the host runtime is not built here: {e}")
    # The runtime compiles the orchestration with the machine's C++ compiler
    # and loads the result: under an emulator (the aarch64 wheel's tests run
    # by qemu-user on x86-64) the compiler builds for another architecture.
    compiler = shutil.which(os.environ.get("CXX", "c++"))
    if compiler is None:
        pytest.skip("no C++ compiler here: the host runtime compiles the orchestration with one")
    target = subprocess.run([compiler, "-dumpmachine"], capture_output=True, text=True).stdout.strip()
    arch = platform.machine()
    if not target.startswith(arch):
        pytest.skip(f"the C++ compiler builds for {target}, this Python runs on {arch} "
                    "(an emulator): the host runtime could not load what it compiles")


@pytest.fixture
def stub(monkeypatch, tmp_path):
    return stubs.install(monkeypatch, tmp_path / "build")


def write_model(tmp_path: pathlib.Path, body: str) -> pathlib.Path:
    """A model file in pypto-lib's form: argparse with -p, then the harness."""
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent('''\
        import pypto_stubs as s

        def build_add_twice_program():
            return s.add_program()

        def build_tensor_specs():
            return s.add_specs()

        if __name__ == "__main__":
            import argparse
            from golden import run

            parser = argparse.ArgumentParser()
            parser.add_argument("-p", "--platform", default="a2a3", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
            args = parser.parse_args()
        ''') + textwrap.indent(textwrap.dedent(body), "    "))
    return path


# --- the kernel table -------------------------------------------------------

def test_compile_writes_the_kernel_table_and_asks_for_no_ptoas(stub, tmp_path):
    compiled, recorder = _compile.compile_program(stubs.add_program(), pp.PLATFORMS["a5"])
    assert stub.calls[0]["skip_ptoas"] is True
    assert stub.calls[0]["backend_type"] is stubs.BackendType.Ascend950
    assert stub.calls[0]["platform"] == "a5"
    table = _compile.single_orchestration(compiled, recorder)
    assert [k.name for k in table.kernels] == ["vec_add"]
    text = (table.output_dir / "kernel_table.txt").read_text()
    assert "orchestration orchestration/add_twice.cpp" in text
    assert "kernel 0 aiv kernels/aiv/vec_add.pto vec_add" in text
    assert _compile.read_table(table.output_dir) == table
    # The backend's codegen module is PyPTO's own again after the compile.
    assert isinstance(stubs.sys.modules["pypto.backend.pto_backend"]._codegen_core, stubs._CodegenCore)


def test_a2a3_compiles_for_ascend910b(stub):
    _compile.compile_program(stubs.add_program(), pp.PLATFORMS["a2a3"])
    assert stub.calls[0]["backend_type"] is stubs.BackendType.Ascend910B


def test_group_file_gives_each_kernel_its_function(stub, tmp_path):
    program = stubs.StubProgram("add_twice", {"kernels/pair.pto": "add.pto", "orchestration/add_twice.cpp":
                                              "add_twice.cpp"}, {"vec_add": (3, stubs.CoreType.CUBE)})
    compiled, recorder = _compile.compile_program(program, pp.PLATFORMS["a5"])
    table = _compile.single_orchestration(compiled, recorder)
    assert table.kernels == (pp.Kernel(3, "vec_add", "aic", "kernels/pair.pto"),)


def test_kernel_without_pto_is_refused(stub):
    program = stubs.StubProgram("add_twice", {"orchestration/add_twice.cpp": "add_twice.cpp"},
                                {"extern_attn": (0, stubs.CoreType.VECTOR)})
    compiled, recorder = _compile.compile_program(program, pp.PLATFORMS["a5"])
    with pytest.raises(pp.PyptoError, match="kernel extern_attn .* has no .pto"):
        _compile.single_orchestration(compiled, recorder)


def test_dynamic_dims_follow_pyptos_unpacking(monkeypatch):
    """A kernel's dynamic dimensions as PyPTO's wrapper unpacks them, in the
    runtime's shape(T,D) form (T counted among the tensor parameters)."""

    class TensorType:
        pass

    params = [types.SimpleNamespace(name_hint=n, type=TensorType() if n != "alpha" else object())
              for n in ("x", "alpha", "w", "out")]
    unpacking = "\n".join([
        "    // Unpack tensor: x", "    __gm__ float* x = ...;",
        "    // Extract dynamic dim: m", "    int64_t m = static_cast<int64_t>(x_tensor->shapes[0]);", "",
        "    // Extract dynamic dim: n",
        "    int64_t n = (static_cast<int64_t>(out_tensor->shapes[1]) - 3);", "",
        "    // Extract dynamic dim: k", "    int64_t k = ((static_cast<int64_t>(w_tensor->shapes[1]) * 2) / 4);",
    ])
    backend = types.SimpleNamespace(_ir_core=types.SimpleNamespace(TensorType=TensorType),
                                    _generate_arg_unpacking=lambda func: (unpacking, []))
    monkeypatch.setitem(stubs.sys.modules, "pypto.backend.pto_backend", backend)
    dims = _compile.dynamic_dims(types.SimpleNamespace(name="k", params=params))
    assert dims == ("shape(0,0)", "(shape(2,1)-3)", "((shape(1,1)*2)/4)")


# --- one-line refusals ------------------------------------------------------

def test_missing_pypto_is_one_line(monkeypatch, tmp_path):
    stubs.install(monkeypatch, tmp_path, pypto=False)
    with pytest.raises(pp.PyptoError, match=r"^PyPTO .* is needed .*import pypto failed"):
        pp.run_model(str(write_model(tmp_path, "run(program=build_add_twice_program(), specs=[])")))


def test_missing_torch_is_one_line(monkeypatch, tmp_path):
    stubs.install(monkeypatch, tmp_path, torch=False)
    with pytest.raises(pp.PyptoError, match=r"^torch .* is needed .*import torch failed"):
        pp.run_model(str(write_model(tmp_path, "pass")))
    with pytest.raises(pp.PyptoError, match=r"^torch"):
        pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice)


def test_missing_golden_package_is_one_line(monkeypatch, tmp_path):
    stubs.install(monkeypatch, tmp_path, golden=False)
    with pytest.raises(pp.PyptoError, match=r"golden package .* import golden failed"):
        pp.run_model(str(write_model(tmp_path, "pass")))


def test_model_without_golden_is_refused_before_compiling(stub, tmp_path):
    model = write_model(tmp_path, "run(program=build_add_twice_program(), specs=build_tensor_specs(), "
                                  "runtime_cfg=dict(platform=args.platform))")
    with pytest.raises(pp.PyptoError, match="without a golden"):
        pp.run_model(str(model))
    assert stub.calls == []


def test_model_without_harness_or_golden_function_is_refused(stub, tmp_path):
    with pytest.raises(pp.PyptoError, match="has no golden"):
        pp.run_model(str(write_model(tmp_path, "pass")))


def test_model_that_exits_before_the_harness_is_refused(stub, tmp_path):
    with pytest.raises(pp.PyptoError, match="exited .* before calling the harness"):
        pp.run_model(str(write_model(tmp_path, "raise SystemExit(3)")))


def test_kernel_libpto_refuses_is_located(stub, tmp_path):
    program = stubs.add_program(kernel="refused.pto")
    with pytest.raises(pp.PyptoError) as info:
        pp.run(program, stubs.add_specs(), golden_fn=stubs.golden_add_twice, runtime_cfg=dict(platform="a5"))
    message = str(info.value)
    assert message.startswith("libpto refuses kernel vec_add: ")
    assert "kernels/aiv/vec_add.pto:" in message
    assert "\n" not in message
    line, col = message.split("vec_add.pto:")[1].split(":")[:2]
    assert int(line) > 0 and int(col) > 0
    assert "error:" in message


def test_unknown_platform_and_runtime_keys(stub):
    with pytest.raises(pp.PyptoError, match="unknown platform 'a9'"):
        pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
               runtime_cfg=dict(platform="a9"))
    with pytest.raises(pp.PyptoError, match="runtime_cfg has keys libpto does not know: stream"):
        pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
               runtime_cfg=dict(platform="a5", stream=1))


def test_missing_api_name_is_named():
    """The compiler's sentences for a name the runtime's header lacks, as
    g++ and clang word them."""
    for sentence in ("orchestration/x.cpp:40:9: error: 'rt_submit_vector_task' was not declared in this scope",
                     "orchestration/x.cpp:40:9: error: \u2018rt_submit_vector_task\u2019 was not declared in this "
                     "scope; did you mean \u2018rt_submit_aic_task\u2019?",
                     "orchestration/x.cpp:40:9: error: use of undeclared identifier 'rt_submit_vector_task'"):
        said = _runtime.explain(sentence)
        assert said.startswith("the orchestration uses rt_submit_vector_task, which libpto's host runtime lacks")
        assert sentence in said
    assert _runtime.explain("task 3: kernel 2 refused") == "task 3: kernel 2 refused"


def test_compile_only_verifies_and_stops(stub):
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                    runtime_cfg=dict(platform="a5"), compile_only=True)
    assert result.passed and result.kernels == 1 and "run" not in result.times


# --- values -----------------------------------------------------------------

def test_scalar_bits_are_what_the_orchestration_reads():
    assert _runtime.scalar_bits(-1) == 0xFFFFFFFFFFFFFFFF
    assert _runtime.scalar_bits(ctypes.c_int32(-2)) == 0xFFFFFFFFFFFFFFFE
    assert _runtime.scalar_bits(True) == 1
    assert _runtime.scalar_bits(1.5) == 0x3FC00000
    assert _runtime.scalar_bits(ctypes.c_float(-2.0)) == 0xC0000000
    assert _runtime.scalar_bits(ctypes.c_double(1.0)) == 0x3FF0000000000000
    assert _runtime.scalar_bits(ctypes.c_uint16(0x3C00)) == 0x3C00


def test_largest_errors():
    e = np.array([1.0, -2.0, 0.0, np.nan, np.inf])
    a = np.array([1.5, -2.0, 0.25, np.nan, np.inf])
    assert pp.largest_errors(a, e) == (0.5, 0.5)
    abs_err, rel_err = pp.largest_errors(np.array([np.nan]), np.array([1.0]))
    assert np.isnan(abs_err) and np.isnan(rel_err)


def test_tensor_view_refuses_strided_arrays():
    with pytest.raises(pp.PyptoError, match="not C-contiguous"):
        _runtime.tensor_view(np.zeros((4, 4), np.float32)[:, ::2])
    addr, nbytes, dtype, shape = _runtime.tensor_view(np.zeros((2, 3), np.float16))
    assert (nbytes, dtype, shape) == (12, "float16", (2, 3)) and addr


# --- whole runs on the host runtime ----------------------------------------

def test_run_passes_against_its_golden(stub):
    runtime_or_skip()
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                    runtime_cfg=dict(platform="a5", workers=2), rtol=0, atol=0)
    assert result.passed, result.error
    assert result.tasks == 2
    assert result.max_errors == {"out": (0.0, 0.0)}
    assert set(result.times) == {"compile", "golden", "prepare", "run"}
    assert set(result.cpu_times) == {"golden", "run"} and all(t >= 0 for t in result.cpu_times.values())
    assert "; CPU golden " in str(result)


def test_profile_times_each_kernel(stub):
    runtime_or_skip()
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                    runtime_cfg=dict(platform="a5", workers=2, profile=True), rtol=0, atol=0)
    assert result.passed, result.error
    assert sum(tasks for tasks, _ in result.kernel_times.values()) == result.tasks == 2
    assert all(seconds > 0 for _, seconds in result.kernel_times.values())
    name = next(iter(result.kernel_times))
    assert f"  kernel {name}: " in result.report()
    assert result.as_dict()["kernel_times"][name][0] == result.kernel_times[name][0]
    plain = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                   runtime_cfg=dict(platform="a5"), rtol=0, atol=0)
    assert plain.passed and plain.kernel_times == {}


def test_pto2_order(stub):
    runtime_or_skip()
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                    runtime_cfg=dict(platform="a5", workers=2, order="pto2"), rtol=0, atol=0)
    assert result.passed, result.error
    assert result.order == "pto2" and "PTO2's orders" in str(result)
    with pytest.raises(pp.PyptoError, match="order 'npu' is neither 'all' nor 'pto2'"):
        pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
               runtime_cfg=dict(platform="a5", order="npu"))


def test_compare_workers_reruns_on_the_same_inputs(stub):
    runtime_or_skip()
    # out is read before it is written: a rerun that found the first run's
    # out instead of the inputs' would add x + y twice and fail.
    result = pp.run(stubs.add_program(orchestration="accumulate.cpp"), stubs.accumulate_specs(),
                    golden_fn=stubs.golden_accumulate,
                    runtime_cfg=dict(platform="a5", workers=1, compare_workers=[2, 1]), rtol=0, atol=0)
    assert result.passed, result.error
    assert [(r.workers, r.passed) for r in result.reruns] == [(2, True), (1, True)]
    assert all(isinstance(r, pp.Rerun) for r in result.reruns)
    assert all(r.run > 0 and r.run_cpu >= 0 for r in result.reruns)
    assert "  rerun on 2 workers: PASS (run " in result.report()
    assert result.as_dict()["reruns"][0]["workers"] == 2
    plain = pp.run(stubs.add_program(orchestration="accumulate.cpp"), stubs.accumulate_specs(),
                   golden_fn=stubs.golden_accumulate, runtime_cfg=dict(platform="a5"), rtol=0, atol=0)
    assert plain.passed and plain.reruns == []


def test_compare_workers_fails_with_its_run(stub):
    runtime_or_skip()
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_wrong,
                    runtime_cfg=dict(platform="a5", compare_workers=[2]))
    assert not result.passed and [r.passed for r in result.reruns] == [False]
    assert "does not match golden" in result.reruns[0].error
    for bad in (2, [0], ["2"], [True]):
        with pytest.raises(pp.PyptoError, match="compare_workers must be a list of positive integers"):
            pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                   runtime_cfg=dict(platform="a5", compare_workers=bad))


def test_run_fails_against_a_wrong_golden(stub):
    runtime_or_skip()
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_wrong,
                    runtime_cfg=dict(platform="a5"))
    assert not result.passed
    assert "does not match golden" in result.error
    assert result.max_errors["out"][0] > 0


def test_runtime_lacking_an_api_name_names_it(stub):
    runtime_or_skip()
    with pytest.raises(pp.PyptoError, match="uses rt_submit_vector_task, which libpto's host runtime lacks"):
        pp.run(stubs.add_program(orchestration="missing_api.cpp"), stubs.add_specs(),
               golden_fn=stubs.golden_add_twice, runtime_cfg=dict(platform="a5"))


def test_command_line_runs_a_model_file(stub, tmp_path, capsys):
    runtime_or_skip()
    model = write_model(tmp_path, """\
        result = run(program=build_add_twice_program(), specs=build_tensor_specs(),
                     golden_fn=s.golden_add_twice, runtime_cfg=dict(platform=args.platform, device_id=0),
                     rtol=1e-6, atol=1e-6)
        if not result.passed:
            raise SystemExit(1)
        """)
    report = tmp_path / "result.json"
    assert pp.main([str(model), "--platform", "a2a3", "--workers", "1", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    [saved] = json.loads(report.read_text())
    assert saved["passed"] and saved["platform"] == "a2a3" and saved["tasks"] == 2 and saved["workers"] == 1
    assert saved["max_errors"] == {"out": [0.0, 0.0]}
    assert "PASS on libpto (a2a3, 1 kernels, 2 tasks" in out
    assert "out: max abs error 0" in out
    assert out.rstrip().endswith("PASS (1 run)")
    assert stub.calls[-1]["backend_type"] is stubs.BackendType.Ascend910B
    assert pp.main([str(model), "--workers", "1", "--profile"]) == 0
    assert "  kernel " in capsys.readouterr().out and "  kernel " not in out
    assert pp.main([str(model), "--workers", "1", "--compare-workers", "2", "--json", str(report)]) == 0
    assert "  rerun on 2 workers: PASS (run " in capsys.readouterr().out
    [saved] = json.loads(report.read_text())
    assert [r["workers"] for r in saved["reruns"]] == [2] and saved["reruns"][0]["passed"]
    assert pp.main([str(model), "--compare-workers", "2,x"]) == 2
    assert "--compare-workers takes positive worker counts" in capsys.readouterr().err


def test_command_line_error_is_one_line(stub, tmp_path, capsys):
    assert pp.main([str(tmp_path / "absent.py")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "absent.py: no such model file" in err


def test_tselc_is_refused_with_its_location():
    """pto.tselc, which PyPTO's codegen table spells but no ISA page, PTOAS or
    PyPTO operation defines (docs/pypto.md), is refused where it stands."""
    text = stubs.fixture_text("add.pto").replace("pto.tadd ins(%tx, %ty", "pto.tselc ins(%tx, %ty")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "pto.tselc" in l)
    with pytest.raises(pto.ProgramError, match="pto.tselc") as info:
        pto.Program(text, name="selc.pto")
    assert (info.value.line, info.value.column) == (line, 5)


def test_command_line_compile_only_needs_no_runtime(stub, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PTO_RUNTIME_LIBRARY", str(tmp_path / "absent.so"))
    model = write_model(tmp_path, """\
        run(program=build_add_twice_program(), specs=build_tensor_specs(), golden_fn=s.golden_add_twice,
            runtime_cfg=dict(platform=args.platform), rtol=0, atol=0)
        """)
    assert pp.main([str(model), "--compile-only"]) == 0
    out = capsys.readouterr().out
    assert "PASS on libpto (a5, 1 kernels; compile " in out and "run " not in out
    assert stub.calls[-1]["backend_type"] is stubs.BackendType.Ascend950


def test_model_imports_its_sibling_modules(stub, tmp_path):
    """As under `python MODEL.py`, the model's directory comes first on the path."""
    (tmp_path / "model_sizes.py").write_text("ROWS = 16\n")
    model = write_model(tmp_path, """\
        from model_sizes import ROWS
        assert ROWS == 16
        run(program=build_add_twice_program(), specs=build_tensor_specs(), golden_fn=s.golden_add_twice,
            runtime_cfg=dict(platform=args.platform))
        """)
    [result] = pp.run_model(str(model), compile_only=True)
    assert result.passed and result.kernels == 1
    assert str(tmp_path) not in stubs.sys.path


def test_source_locations_are_read_past():
    """PyPTO writes MLIR's loc(...) after each operation (and a function's
    signature): libpto reads past them, strings and nested parentheses too,
    and the kernel runs as without them."""
    lines = []
    for i, line in enumerate(stubs.fixture_text("add.pto").splitlines()):
        if line.lstrip().startswith(("pto.", "%")):
            line += f' loc("models/m.py":{i}:5)' if i % 2 else ' loc(callsite("a(b).py":1:2 at "c.py":3:4))'
        lines.append(line)
    text = "\n".join(lines)
    assert text.count("loc(") > 10
    prog = pto.Program(text, name="located.pto")
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((16, 16), dtype=np.float32), rng.standard_normal((16, 16), dtype=np.float32)
    out = np.zeros((16, 16), np.float32)
    prog(x=x, y=y, out=out)
    assert np.array_equal(out, x + y)
    # An identifier ending in "loc" is still an identifier: the error names it.
    with pytest.raises(pto.ProgramError, match="myloc"):
        pto.Program(text.replace("pto.tadd ins", "myloc(1) pto.tadd ins"), name="bad.pto")


# --- the tap: each task's kernel, views and times, without PyPTO ------------

def runtime_export(tmp_path: pathlib.Path, orchestration: str, kernel: str, table: str) -> pathlib.Path:
    """An export made of the runtime suite's fixtures (tests/runtime/work): one
    orchestration, one kernel and the kernel table's text."""
    from helpers import source_file

    source = source_file("tests", "runtime", "work", "orchestration", orchestration)
    if source is None:
        pytest.skip("tests/runtime/work not found beside the tests (set PTO_SOURCE_ROOT)")
    work = tmp_path / "work"
    (work / "kernels").mkdir(parents=True)
    (work / "orchestration").mkdir()
    shutil.copyfile(source, work / "orchestration" / orchestration)
    shutil.copyfile(source.parents[1] / "kernels" / kernel, work / "kernels" / kernel)
    (work / "kernel_table.txt").write_text(table)
    return work


def tap_work_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    """The runtime suite's chain (four axpy tasks, out = 2 out + y in place)
    as an export: its kernel, its orchestration, a kernel table naming both."""
    work = runtime_export(tmp_path, "chain.cpp", "axpy.pto",
                          "orchestration orchestration/chain.cpp\n"
                          "kernel 0 aiv kernels/axpy.pto\ndims 0 shape(0,0)\n")
    return work


def test_tap_sees_each_task_before_and_after(tmp_path):
    runtime_or_skip()
    y = np.arange(256, dtype=np.float32).reshape(16, 16) % 7 - 3
    out = np.arange(256, dtype=np.float32).reshape(16, 16) % 5 - 2
    out0 = out.copy()
    seen = []

    def tap(task):
        # before: out as the tasks before left it; after: its own update.
        view = task.tensors[0 if task.event == "before" else 2]
        seen.append((task.event, task.id, task.kernel, task.kernel_id, task.blocks, task.scalars[1],
                     view.array().copy(), task.start_ns, task.end_ns, view.written, view.within(out.ctypes.data,
                                                                                                 out.nbytes)))

    with pp.Session(tap_work_dir(tmp_path), workers=2) as s:
        s.set_tap(tap, before=True, after=True)
        s.run([y, out], [])
        assert [(e, i) for e, i, *_ in seen] == [(e, i) for i in range(4) for e in ("before", "after")]
        for event, i, kernel, kid, blocks, ld, got, start, end, written, in_out in seen:
            k = i + (event == "after")
            assert np.array_equal(got, 2.0 ** k * out0 + (2.0 ** k - 1) * y), (event, i)
            assert (kernel, kid, blocks, ld, in_out, written) == ("axpy", 0, 1, 16, True, event == "after")
            assert (start, end) == (0, 0) if event == "before" else 0 < start <= end
        s.set_tap(None)
        s.run([y, out], [])
        assert len(seen) == 8


def test_tap_exception_stops_the_run_and_is_raised(tmp_path):
    runtime_or_skip()
    y = np.ones((16, 16), np.float32)
    out = np.zeros((16, 16), np.float32)

    def tap(task):
        if task.id == 1:
            raise ValueError("task 1's output is wrong")

    with pp.Session(tap_work_dir(tmp_path), workers=1) as s:
        s.set_tap(tap)
        with pytest.raises(ValueError, match="task 1's output is wrong"):
            s.run([y, out], [])
    assert np.all(out == 3)  # tasks 0 and 1 ran (2 * 0 + 1, then 2 * 1 + 1), no task after


def test_tap_view_array_follows_strides():
    m = np.arange(64, dtype=np.float32).reshape(8, 8)
    block = _runtime.TapView(m.ctypes.data + 4 * 2, "float32", 4, (8, 2), (8, 1), m.ctypes.data, m.nbytes, False)
    assert np.array_equal(block.array(), m[:, 2:4])
    t = _runtime.TapView(m.ctypes.data, "float32", 4, (8, 8), (1, 8), m.ctypes.data, m.nbytes, False)
    assert np.array_equal(t.array(), m.T)
    bits = np.array([0x3F80, 0xC000], np.uint16)
    bf = _runtime.TapView(bits.ctypes.data, "bfloat16", 2, (2,), (1,), bits.ctypes.data, 4, True)
    assert bf.array().dtype == np.uint16 and bf.array().tolist() == [0x3F80, 0xC000]
    assert bf.within(bits.ctypes.data, 4) and not bf.within(bits.ctypes.data + 2, 2)


# --- board mode: a kernel that breaks a rule the NPU leaves unchecked --------

def board_work_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    """The runtime suite's errors.cpp with its kernel 10, board_mm.pto (an A5
    cube kernel whose tmatmul.acc takes a left tile of 8 valid rows into an
    accumulator typed with 16), as an export."""
    return runtime_export(tmp_path, "errors.cpp", "board_mm.pto", "kernel 10 aic kernels/board_mm.pto\n")


def test_board_mode_runs_what_the_default_refuses(tmp_path):
    runtime_or_skip()
    work = board_work_dir(tmp_path)
    with pytest.raises(pp.PyptoError, match=r"board_mm\.pto:39:5: error: pto_tmatmul_acc: a valid rows 8 differ"):
        pp.Session(work, workers=2)
    x = (np.arange(256, dtype=np.float32).reshape(16, 16) % 7) - 3
    y = (np.arange(256, dtype=np.float32).reshape(16, 16) % 5) - 2
    want = x @ y
    want[:8] *= 2  # board mode: M = the left tile's 8 valid rows accumulate again
    for workers in (1, 2):
        out = np.zeros((16, 16), np.float32)
        with pp.Session(work, workers=workers, board=True) as s:
            s.run([x, y, out], [9])
            assert np.array_equal(out, want)
            [(rule, count)] = s.board_warnings.items()
            assert rule == "pto_tmatmul_acc: a valid rows 8 differ from dst valid rows 16 (M)"
            assert count >= 2  # the verification's and the run's
    assert not pto.board_mode()


def test_board_mode_in_the_verdict(stub, tmp_path, capsys):
    runtime_or_skip()
    result = pp.run(stubs.add_program(), stubs.add_specs(), golden_fn=stubs.golden_add_twice,
                    runtime_cfg=dict(platform="a5", workers=1), rtol=0, atol=0, board=True)
    assert result.passed and result.board and result.board_warnings == {}
    assert "(a5, 1 kernels, board mode, 0 warnings, 2 tasks" in str(result)
    model = write_model(tmp_path, """\
        result = run(program=build_add_twice_program(), specs=build_tensor_specs(),
                     golden_fn=s.golden_add_twice, runtime_cfg=dict(platform=args.platform), rtol=0, atol=0)
        """)
    assert pp.main([str(model), "--workers", "1", "--board"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("PASS (1 run; board mode, 0 warnings)")
