"""The package surface: version, enums taken from the C header, docstrings on
every public name, help(pto) as the manual, type information."""

import inspect
import pathlib
import pydoc
import re

import pytest

import pto
from helpers import source_file


def test_version_and_target():
    assert pto.__version__ == "0.6.0"
    target = pto.simd_target()
    assert isinstance(target, str) and target


def header_path():
    return source_file("include", "pto_c.h")


def header_enum(text, name):
    body = re.search(r"typedef enum %s \{(.*?)\}" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"(PTO_\w+)\s*=\s*(\d+)", body)}


@pytest.mark.parametrize("enum_name,cls,prefix", [
    ("pto_dtype", pto.DType, "PTO_"), ("pto_status", pto.Status, "PTO_"),
    ("pto_pow_algorithm", pto.PowAlgorithm, "PTO_POW_"), ("pto_profile", pto.Profile, "PTO_PROFILE_")])
def test_enums_match_the_header(enum_name, cls, prefix):
    path = header_path()
    if path is None:
        pytest.skip("include/pto_c.h not found beside the tests (set PTO_SOURCE_ROOT)")
    c = header_enum(path.read_text(), enum_name)
    assert {k[len(prefix):]: v for k, v in c.items()} == {m.name: int(m) for m in cls}


# The functions of include/pto_c.h that the extension does not call, and why.
NOT_CALLED = {
    "pto_dtype_string": "DType is an IntEnum whose names are the header's (test_fixed_names)",
    "pto_profile_string": "Profile is an IntEnum whose names are the header's (test_fixed_names)",
    "pto_program_run": "Program.run calls pto_program_launch, of which it is the one-block case",
    "pto_program_check": "checks a module of several kernels without an entry, for pto-run --check; a program here is made to run (created with an entry)",
    "pto_program_param_find": "Program looks parameters up in a dict of pto_program_param_name",
    "pto_tile_buffer": "a placed Tile keeps a reference to its Buffer object itself",
    "pto_tile_read_f32": "tiles expose their memory through the buffer protocol (numpy views)",
    "pto_tile_write_f32": "tiles expose their memory through the buffer protocol (numpy views)",
    "pto_set_warning_handler": "board-mode warnings go to stderr: a launch's pool threads would call a Python handler while the launching thread may hold the GIL",
}


def test_every_header_function_is_bound():
    """Fails when include/pto_c.h declares a function that the extension's C
    sources neither call nor list in NOT_CALLED, so a new instruction cannot
    be left out of the Python binding unnoticed."""
    path = header_path()
    src_dir = path.parent.parent / "bindings" / "python" / "src" if path else None
    if path is None or not src_dir.is_dir():
        pytest.skip("include/pto_c.h and bindings/python/src not found (an installed wheel; "
                    "set PTO_SOURCE_ROOT to a source tree)")
    declared = set(re.findall(r"PTO_API[^;]*?\b(pto_\w+)\s*\(", path.read_text()))
    assert len(declared) >= 40, declared
    sources = "".join(f.read_text() for f in sorted(src_dir.glob("*.c")))
    called = {name for name in declared if re.search(r"\b%s\b" % name, sources)}
    # The operations' and settings' calls are generated at build time from
    # src/operations.def and src/settings.def (tools/gen-operations.py):
    # pto_<mnemonic> is bound when the extension has it.
    rows = (path.parent.parent / "src" / "operations.def").read_text()
    mnemonics = re.findall(r"^\s*PTO_OPERATION\(\s*\w+\s*,\s*\w+\s*,\s*(\w+)", rows, re.M)
    assert mnemonics, "no PTO_OPERATION rows in src/operations.def"
    settings = (path.parent.parent / "src" / "settings.def").read_text()
    setting_names = re.findall(r"^\s*PTO_SETTING\(\s*\w+\s*,\s*\w+\s*,\s*(\w+)", settings, re.M)
    assert setting_names, "no PTO_SETTING rows in src/settings.def"
    mnemonics += setting_names
    called |= {"pto_" + m for m in mnemonics if callable(getattr(pto._pto, m, None))} & declared
    assert sorted(declared - called - NOT_CALLED.keys()) == [], "declared in pto_c.h, not bound"
    assert sorted(called & NOT_CALLED.keys()) == [], "bound, yet listed in NOT_CALLED"
    assert sorted(NOT_CALLED.keys() - declared) == [], "listed in NOT_CALLED, not in pto_c.h"


def test_fixed_names():
    assert pto.Status.ERR_SHAPE_MISMATCH == 5 and issubclass(pto.Status, int)
    assert [m.name for m in pto.DType] == ["INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32",
                                           "FLOAT16", "BFLOAT16", "FLOAT32", "INT64", "UINT64",
                                           "FLOAT8_E4M3", "FLOAT8_E5M2", "HIFLOAT8", "FLOAT8_E8M0",
                                           "FLOAT4_E2M1X2", "FLOAT4_E1M2X2", "INT4X2"]
    assert [m.name for m in pto.PowAlgorithm] == ["DEFAULT", "HIGH_PRECISION"]
    assert [m.name for m in pto.Profile] == ["HOST", "A2A3", "A5"]
    for name in pto.__all__:
        assert hasattr(pto, name), name


def public_members(obj):
    for name, member in inspect.getmembers(obj):
        if not name.startswith("_") or name in ("__init__", "__enter__", "__exit__"):
            yield name, member


def test_docstrings_everywhere():
    assert pto.__doc__ and len(pto.__doc__) > 1000
    missing = []
    for name in pto.__all__:
        obj = getattr(pto, name)
        if name == "__version__":
            continue
        if not inspect.getdoc(obj):
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member_name, member in public_members(obj):
                if isinstance(obj, type) and issubclass(obj, int) and member_name in dir(int):
                    continue  # inherited from int
                if not inspect.getdoc(member):
                    missing.append(f"{name}.{member_name}")
    assert not missing, missing


def test_help_reads_as_the_manual():
    text = pydoc.render_doc(pto, renderer=pydoc.plaintext)
    for needle in ["Quick start", "Errors.", "Lifetimes.", "class Tile", "class Buffer", "from_numpy",
                   "tpow(dst, base, exp, tmp, algorithm=<PowAlgorithm.DEFAULT: 0>)", "trsqrt(dst, src)",
                   "tprelu(dst, src0, src1, tmp=None)", "ShapeMismatchError", "profile(p"]:
        assert needle in text, needle


def test_signatures():
    assert str(inspect.signature(pto.tpow)) == "(dst, base, exp, tmp, algorithm=<PowAlgorithm.DEFAULT: 0>)"
    assert str(inspect.signature(pto.Tile.at)) == "(buffer, offset, dtype, rows, cols)"


def test_type_information_ships():
    package = pathlib.Path(pto.__file__).parent
    assert (package / "py.typed").is_file() and (package / "_pto.pyi").is_file()
    assert pto.Tile.from_numpy.__annotations__ and pto.set_profile.__annotations__


USER_CODE = '''
import numpy as np
import pto

t = pto.Tile(pto.DType.FLOAT32, 2, 2)
a: np.ndarray = t.numpy()
d: pto.Tile = pto.tpow(t, t, t, pto.Tile(pto.DType.FLOAT32, 2, 2), pto.PowAlgorithm.HIGH_PRECISION)
rows: int = t.valid[0]
t.valid = (1, 1)
b: pto.Buffer = pto.Buffer.wrap(bytearray(8))
p: pto.Tile = pto.Tile.at(b, 0, pto.DType.UINT8, 1, 1)
s: pto.Status = pto.ShapeMismatchError("x", pto.Status.ERR_SHAPE_MISMATCH).status
with pto.profile(pto.Profile.A5) as prof:
    q: pto.Profile = prof
'''


def test_type_checkers_see_the_api(tmp_path):
    api = pytest.importorskip("mypy.api", reason="mypy is not installed here (tests/ci/python.sh installs it)")
    (tmp_path / "use_pto.py").write_text(USER_CODE)
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "use_pto.py")])
    assert status == 0, out + err


def readme_example(heading):
    """Runs the first python block after bindings/python/README.md's line `heading`; its names."""
    path = header_path()
    readme = path.parents[1] / "bindings" / "python" / "README.md" if path is not None else None
    if readme is None or not readme.is_file():
        pytest.skip("bindings/python/README.md not found beside the tests (set PTO_SOURCE_ROOT)")
    section = readme.read_text().split("\n" + heading + "\n", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    names = {}
    exec(compile(code, f"bindings/python/README.md ({heading.lstrip('# ')})", "exec"), names)
    return names


def test_readme_example_runs():
    names = readme_example("## Quick start")
    assert names["out"].tolist() == [[1024.0, -27.0, 4.0, 3.0]]
    assert (names["host"][1] == 0.25).all() and not names["host"][0].any()
