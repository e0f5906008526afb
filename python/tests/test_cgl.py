"""The Python face of cgl: values, errors, limits, check, and every example file."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

import cgl

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.game"))
NIM = "game Nim { position n  move k for k in 0..n }\n"
# A game whose positions never run out: only a limit ends its analysis.
ENDLESS = "game Up { position n  move n + 1  move n + 2 }\n"


def cgl_binary():
    """The `cgl` binary to compare with: $CGL_BIN, the root's release build, or on PATH."""
    for candidate in (os.environ.get("CGL_BIN"), ROOT / "target" / "release" / "cgl"):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return shutil.which("cgl")


@pytest.fixture
def nim():
    s = cgl.Session()
    s.load_source(NIM, name="nim.game")
    return s


def test_scalars(nim):
    assert nim.eval("grundy(Nim(3) + Nim(5))") == 6
    assert type(nim.eval("1 + 1")) is int
    assert nim.eval("true") is True
    assert nim.eval("none") is None
    assert nim.eval('"a\\"b"') == 'a"b'
    assert nim.eval("3/4") == Fraction(3, 4)
    assert isinstance(nim.eval("-6/8"), Fraction)
    assert nim.eval("-6/8") == Fraction(-3, 4)
    assert nim.eval("2..5") == range(2, 5)


def test_outcomes(nim):
    assert nim.eval("outcome(Nim(0))") is cgl.Outcome.P
    assert nim.eval("outcome(Nim(2))") is cgl.Outcome.N
    assert [o.name for o in cgl.Outcome] == ["N", "P", "L", "R", "D"]
    assert nim.eval("L") is cgl.Outcome.L
    assert str(cgl.Outcome.R) == "R"


def test_collections(nim):
    assert nim.eval("[1, true]") == [1, True]
    assert nim.eval("(1,)") == (1,)
    assert nim.eval("{3, 1}") == frozenset({1, 3})
    # Python's sets hold only hashable values: a list in a set becomes a tuple.
    assert nim.eval("{(1, [2, {3}]), (0, [])}") == frozenset({(1, (2, frozenset({3}))), (0, ())})
    got = nim.eval("[(grundy(Nim(k)), outcome(Nim(k)), k / 2) for k in 0..3]")
    assert got == [
        (0, cgl.Outcome.P, 0),
        (1, cgl.Outcome.N, Fraction(1, 2)),
        (2, cgl.Outcome.N, 1),
    ]


def test_canonical_forms_are_values(nim):
    star = nim.eval("*")
    assert isinstance(star, cgl.Value)
    assert str(star) == "*"
    assert star == nim.eval("* + 0")
    assert star != nim.eval("^")
    assert str(nim.eval("{1 | -1}")) == "+-1"
    assert str(nim.eval("{2 | -1/2}")) == "{2|-1/2}"
    assert len({star, nim.eval("*"), nim.eval("^")}) == 2
    # A number stays a number.
    assert nim.eval("{0 | 1}") == Fraction(1, 2)


def test_positions_and_games(nim):
    p = nim.eval("Nim(2) + Nim(1)")
    assert isinstance(p, cgl.Position)
    assert str(p) == "Nim(1) + Nim(2)"
    moves = nim.eval("moves(Nim(3))")
    assert [str(m) for m in moves] == ["Nim(0)", "Nim(1)", "Nim(2)"]
    assert isinstance(nim.eval("Nim"), cgl.Game)
    assert str(nim.eval("Nim")) == "Nim"
    # Nim has no `show` clause: no picture, no SVG.
    assert p._repr_svg_() is None


def test_a_picture_is_svg():
    s = cgl.Session()
    s.load(str(ROOT / "examples" / "tictactoe.game"))
    p = s.eval("after(4, 0)")
    assert p.picture() == "O . .\n. X .\n. . ."
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<tspan") == 3 and ". X ." in svg


def test_errors_carry_code_spans_and_help(nim):
    with pytest.raises(cgl.Error) as info:
        nim.eval("grundy(Nimm(3))")
    e = info.value
    assert e.code == "cgl::resolve::unknown_name"
    assert e.help == "did you mean `Nim`?"
    assert e.spans[0][:2] == (1, 8)
    assert e.spans[0][3] == 12
    assert "Nimm" in e.rendered and "unknown_name" in e.rendered
    assert e.diagnostics[0]["code"] == e.code
    assert isinstance(e, Exception)


def test_load_errors_point_into_the_source():
    s = cgl.Session()
    with pytest.raises(cgl.Error) as info:
        s.load_source("// a comment\nconst A = nope\nconst B = alsonope\n", name="b.game")
    e = info.value
    assert e.code == "cgl::resolve::unknown_name"
    assert e.spans[0] == (2, 11, 2, 15)
    assert [d["spans"][0][0] for d in e.diagnostics] == [2, 3]
    assert e.diagnostics[1]["file"] == "b.game"
    with pytest.raises(cgl.Error) as info:
        s.load_source("game G { position n move }\n")
    assert info.value.code.startswith("cgl::syntax::")
    with pytest.raises(cgl.Error):
        s.load("/nonexistent/x.game")


def test_a_timeout_stops_one_call_and_the_session_goes_on():
    s = cgl.Session()
    s.load_source(ENDLESS)
    start = time.monotonic()
    with pytest.raises(cgl.Error) as info:
        s.eval("outcome(Up(0))", timeout=0.3)
    assert info.value.code == "cgl::limit::timeout"
    assert time.monotonic() - start < 2.0
    assert s.eval("1 + 1") == 2


def test_position_and_memory_limits():
    s = cgl.Session()
    s.load_source(ENDLESS)
    with pytest.raises(cgl.Error) as info:
        s.eval("outcome(Up(0))", max_positions=1000, timeout=10)
    assert info.value.code == "cgl::graph::too_many_positions"
    with pytest.raises(cgl.Error) as info:
        s.eval("outcome(Up(0))", max_memory=8 << 20, timeout=10)
    assert info.value.code == "cgl::graph::too_much_memory"
    assert s.eval("1 + 2") == 3


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT by kill")
def test_ctrl_c_stops_an_evaluation():
    s = cgl.Session()
    s.load_source(ENDLESS)
    # The GIL is held during eval, so the signal comes from another process.
    killer = subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {os.getpid()}"])
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        s.eval("outcome(Up(0))", timeout=30)
    killer.wait()
    assert time.monotonic() - start < 5
    assert s.eval("2 + 2") == 4


def test_load_source_and_check():
    s = cgl.Session()
    s.load_source(NIM + "expect grundy(Nim(3)) == 3\nexpect 1 + 1 == 3\nexpect Nim(0) is P\n",
                  name="small.game")
    results = s.check()
    assert [(r.line, r.status, r.passed) for r in results] == [
        (2, "passed", True),
        (3, "failed", False),
        (4, "passed", True),
    ]
    assert results[1].code == "cgl::check::failed"
    assert results[1].message
    assert results[0].file == "small.game"
    assert results[0].message is None


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_checks_as_cgl_check_does(path):
    s = cgl.Session()
    s.load(str(path))
    results = s.check(timeout=120)
    failed = [r for r in results if not r.passed]
    assert not failed, failed
    binary = cgl_binary()
    if binary is None:
        if os.environ.get("CGL_REQUIRE_BIN"):
            pytest.fail("no cgl binary to compare with (CGL_BIN)")
        pytest.skip("no cgl binary to compare with (CGL_BIN)")
    out = subprocess.run(
        [binary, "check", "--format", "json", str(path)], capture_output=True, text=True
    )
    report = json.loads(out.stdout)
    expects = [r for r in report["records"] if r["kind"] == "expect"]
    assert report["summary"]["passed"] == len(results)
    assert sorted(r["line"] for r in expects) == sorted(r.line for r in results)
