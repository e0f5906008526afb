"""The Python face of cgl: values, errors, limits, check, and every example file."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

import pytest

import cgl

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.game"))
NIM = "game Nim { position n  move k for k in 0..n }\n"
# A game whose positions never run out: only a limit ends its analysis.
# Play that never ends, slowed by a sum per position (about 200,000 positions a second), so
# that an interrupt a loaded machine delivers late still comes long before the graph reaches
# the memory ceiling (at millions a second it did, once: 24 million positions, 4 GiB).
ENDLESS = "game Up { position n  move n + 1 if sum([k * n for k in 0..200]) >= 0  move n + 2 }\n"


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
    # Python's own handler, as a notebook's kernel has one: a process started with SIGINT
    # ignored (a background job of a non-interactive shell) has none, and a SIGINT would
    # never reach the call.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    # As a notebook's interrupt does: SIGINT to the process while the call runs.
    killer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    killer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        s.eval("outcome(Up(0))", timeout=30)
    killer.join()
    assert time.monotonic() - start < 5
    assert s.eval("2 + 2") == 4
    # The same from another process.
    other = subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {os.getpid()}"])
    with pytest.raises(KeyboardInterrupt):
        s.eval("outcome(Up(0))", timeout=30)
    other.wait()
    assert s.eval("3") == 3
    signal.signal(signal.SIGINT, previous)


def test_the_gil_is_released_while_a_session_computes():
    s = cgl.Session()
    s.load_source(ENDLESS)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    counter = threading.Thread(target=count)
    counter.start()
    with pytest.raises(cgl.Error):
        s.eval("outcome(Up(0))", timeout=1.0)
    stop.set()
    counter.join()
    # Python ran beside the computation: about 100 ticks in its second.
    assert len(ticks) > 30, len(ticks)
    # Two sessions compute at once, each on its thread.
    other = cgl.Session()
    other.load_source(ENDLESS)
    found = []
    threads = [threading.Thread(target=lambda x=x: found.append(
        pytest.raises(cgl.Error, x.eval, "outcome(Up(0))", timeout=1.0))) for x in (s, other)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(found) == 2 and time.monotonic() - start < 1.9


def test_values_go_back_in_as_names(nim):
    p = nim.eval("Nim(3)")
    assert nim.eval("grundy(p + q)", p=p, q=nim.eval("Nim(5)")) == 6
    assert [str(m) for m in nim.eval("moves(p)", p=p)] == ["Nim(0)", "Nim(1)", "Nim(2)"]
    # Python values as the cgl values they equal, both ways.
    for value in [0, -7, 2**62, True, None, "a\"b", Fraction(3, 4), Fraction(4, 2),
                  [1, [2, 3]], (1, "x"), frozenset({1, 2}), range(2, 9), cgl.Outcome.P]:
        assert nim.eval("x", x=value) == value, value
    assert nim.eval("len(x)", x={3, 1, 2}) == 3
    assert nim.eval("x", x=range(0, 10, 3)) == [0, 3, 6, 9]
    assert nim.eval("x + 1", x=Fraction(1, 3)) == Fraction(4, 3)
    # Fractions past 64 bits cross both ways, exact.
    assert nim.eval("(1/3) ** 41") == Fraction(1, 3**41)
    assert nim.eval("x * 3", x=Fraction(2**70 + 1, 3**45)) == Fraction(2**70 + 1, 3**44)
    assert nim.eval("p is P", p=nim.eval("Nim(0)")) is True
    with pytest.raises(TypeError):
        nim.eval("x", x=1.5)
    with pytest.raises(OverflowError):
        nim.eval("x", x=2**70)
    other = cgl.Session()
    with pytest.raises(ValueError):
        other.eval("x", x=p)


def test_games_are_called_and_positions_answer(nim):
    game = nim.game("Nim")
    assert isinstance(game, cgl.Game) and str(game) == "Nim"
    p = game(3) + game(5)
    assert isinstance(p, cgl.Position)
    assert p.grundy() == 6 and p.outcome() is cgl.Outcome.N
    assert game(0).outcome() is cgl.Outcome.P
    assert [m.grundy() for m in game(3).moves()] == [0, 1, 2]
    assert [str(m) for m in p.winning_moves()] == ["Nim(3) + Nim(3)"]
    assert game(4).remoteness() == 1
    with pytest.raises(TypeError):
        nim.game("grundy(Nim(1))")
    with pytest.raises(cgl.Error):
        game(1, 2)


def test_game_values_compare_add_and_draw(nim):
    star, up = nim.eval("*"), nim.eval("^")
    assert star + star == 0
    assert up > 0 and not (star > 0) and not (star < 0) and star.confused(0)
    assert -up < 0 and up - up == 0 and 1 + star == nim.eval("1 + *")
    assert up + up > up
    switch = nim.eval("{2 | -1/2}")
    assert switch.temperature() == Fraction(5, 4) and switch.mean() == Fraction(3, 4)
    assert switch.left_options == [2] and switch.right_options == [Fraction(-1, 2)]
    assert switch.left_stop() == 2 and switch.right_stop() == Fraction(-1, 2)
    assert switch.outcome() is cgl.Outcome.N
    svg = switch._repr_svg_()
    assert svg.startswith("<svg") and 'data-temperature="1.25"' in svg and 'data-mean="0.75"' in svg
    left, right = switch.thermograph()
    assert left[0][0] == -1 and right[0][0] == -1


def test_tables_and_grids_show_in_a_notebook(nim):
    t = nim.table("grundy(Nim(n) + Nim(2))", n=range(6))
    assert t.rows == [(0, 2), (1, 3), (2, 0), (3, 1), (4, 6), (5, 7)]
    html = t._repr_html_()
    assert html.count("<tr>") == 7 and "background:#1f2328" in html
    assert t._repr_svg_().startswith("<svg")
    g = nim.table("a ^ b == 0", a=range(3), b=range(3))
    assert g.rows[4] == ((1, 1), True) and len(g.values()) == 9
    assert g._repr_html_().count("<tr>") == 4
    # Values that cannot be drawn: the table alone.
    words = nim.table("str(n)", n=range(2))
    assert words.svg is None and "<table>" in words._repr_html_()
    with pytest.raises(cgl.Error):
        nim.table("grundy(Nimm(n))", n=range(2))


def test_a_failed_expectation_shows_its_diagnostic():
    s = cgl.Session()
    s.load_source(NIM + "expect grundy(Nim(3)) == 4\n", name="wrong.game")
    [failed] = s.check()
    assert not failed.passed and failed.code == "cgl::check::failed"
    assert "wrong.game:2" in failed.rendered and "grundy(Nim(3))" in failed.rendered
    html = failed._repr_html_()
    assert "failed" in html and "<pre>" in html


def test_equilibria_are_fraction_vectors():
    s = cgl.Session()
    s.load(str(ROOT / "examples" / "strategic.game"))
    found = s.equilibria(s.eval("RPS"))
    third = Fraction(1, 3)
    assert found == [([third] * 3, [third] * 3)]
    assert all(type(p) is Fraction for x in found[0] for p in x)


def test_a_gambit_file_loads_and_writes_back(tmp_path):
    # Gambit's e02.nfg (Selten 1975, figure 2): the extreme equilibria Gambit documents.
    s = cgl.Session()
    s.load(str(ROOT / "examples" / "gambit" / "selten.nfg"))
    half = Fraction(1, 2)
    assert s.eval("vertex_enumeration(selten)") == [([1, 0, 0], [half, half]), ([1, 0, 0], [1, 0])]
    # nfg(G) is the text of an .nfg file; read back, the same game.
    (tmp_path / "back.nfg").write_text(s.eval("nfg(selten)"))
    t = cgl.Session()
    t.load(str(tmp_path / "back.nfg"))
    assert t.eval("strategies(back)") == s.eval("strategies(selten)")
    assert t.eval("vertex_enumeration(back)") == s.eval("vertex_enumeration(selten)")


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


def test_misere_quotient_of_a_game_answers_as_bouton_says(nim):
    """Misère Nim through its quotient against Bouton's rule, written here: with heaps of 1
    only, the player to move loses with an odd number of them; else with nim-sum 0."""
    order, presentation, p_portion, pretend = nim.eval("misere_quotient(Nim, 7)")
    assert (order, p_portion) == (10, ["a", "b^2"])
    assert presentation.startswith("<a, b, c |") and pretend[:4] == ["1", "a", "b", "ab"]
    for heaps in [(1, 1, 1), (1, 1), (2, 2), (1, 2, 3), (7, 5, 2), (4, 4, 1), (6, 1, 1, 6), (3,)]:
        if all(h <= 1 for h in heaps):
            bouton = sum(heaps) % 2 == 1
        else:
            x = 0
            for h in heaps:
                x ^= h
            bouton = x == 0
        got = nim.eval(f"misere_outcome(Nim, {list(heaps)})")
        assert got is (cgl.Outcome.P if bouton else cgl.Outcome.N), heaps


def test_a_game_by_code_is_a_game_of_the_session():
    """`octal("0.77")` through a fresh session (the prelude comes with the first entry):
    Kayles's heaps against a mex written here from the rule (take one or two pins, leaving
    up to two rows), and a heap of a million read off the proved period."""
    s = cgl.Session()
    values = []
    for n in range(40):
        options = set()
        for take in (1, 2):
            for left in range(n - take + 1):
                options.add(values[left] ^ values[n - take - left])
        values.append(next(g for g in range(n + 2) if g not in options))
    assert s.eval('[grundy(octal("0.77")(n)) for n in 0..40]') == values
    assert s.eval('period(octal("0.77"))') == (71, 12)
    assert s.eval('grundy(octal("0.77")(1000000))') == s.eval('grundy(octal("0.77")(76))')
