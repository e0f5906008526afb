"""cgl against the Python tools researchers use: pycgt's canonical forms of Domineering and
Toads and Frogs positions, and nashpy's vertex enumeration of random bimatrix games. Each
peer is an independent implementation; a disagreement is a bug of one of them, to be found.
The peers are installed in CI's venv; elsewhere a missing one skips its test with a message
(CGL_REQUIRE_PEERS=1 makes that a failure)."""

import os
import random
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest

import cgl

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("CGL_PEER_SEED", "20261207"))


def peer(name):
    try:
        return __import__(name)
    except ImportError:
        if os.environ.get("CGL_REQUIRE_PEERS"):
            pytest.fail(f"{name} is not installed (CGL_REQUIRE_PEERS=1)")
        pytest.skip(f"{name} is not installed: pip install {name} to compare with it")


def cgl_text(game, pycgt):
    """A pycgt game as cgl's literal of it: a number as a fraction, else {L | R}."""
    if pycgt.is_number(game):
        x = Fraction(pycgt.as_number(game))
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    left = ", ".join(cgl_text(g, pycgt) for g in game.left)
    right = ", ".join(cgl_text(g, pycgt) for g in game.right)
    return "{" + left + " | " + right + "}"


def random_board(rng, rows, cols):
    return [[1 if rng.random() < 0.75 else 0 for _ in range(cols)] for _ in range(rows)]


def test_domineering_matches_pycgt():
    pycgt = peer("pycgt")
    from pycgt.rulesets import domineering
    s = cgl.Session(timeout=60)
    s.load(str(ROOT / "examples" / "domineering.game"))
    rng = random.Random(SEED)
    boards = [[[1] * w for _ in range(h)] for h in range(1, 4) for w in range(1, 5)]
    boards += [random_board(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(25)]
    compared = 0
    for rows in boards:
        if not any(any(r) for r in rows):
            continue
        ascii_art = "\n".join("".join("." if x else "#" for x in r) for r in rows)
        theirs = domineering.parse(ascii_art)
        expr = cgl_text(theirs, pycgt)
        same = s.eval(f"value(board(rows)) == {expr}", rows=rows)
        assert same, f"{ascii_art}\ncgl: {s.eval('value(board(rows))', rows=rows)}, pycgt: {expr}"
        compared += 1
    assert compared >= 30


def test_toads_and_frogs_matches_pycgt():
    pycgt = peer("pycgt")
    from pycgt.rulesets import toads_and_frogs
    s = cgl.Session(timeout=60)
    s.load(str(ROOT / "examples" / "toads_frogs.game"))
    rng = random.Random(SEED + 1)
    strips = ["t.f", "tt.f", "t.ff", "tt.ff", "ttt..fff", "t.t.f", "t.tf.f"]
    strips += ["".join(rng.choice("tf..") for _ in range(rng.randint(3, 8))) for _ in range(40)]
    code = {"t": 1, "f": 2, ".": 0}
    for strip in strips:
        theirs = toads_and_frogs.value(strip)
        expr = cgl_text(theirs, pycgt)
        b = [code[c] for c in strip]
        same = s.eval(f"value(tf(b)) == {expr}", b=b)
        assert same, f"{strip}: cgl {s.eval('value(tf(b))', b=b)}, pycgt {expr}"


def bimatrix_source(name, a, b):
    rows = ", ".join(
        "[" + ", ".join(f"({a[i][j]}, {b[i][j]})" for j in range(len(a[0]))) + "]"
        for i in range(len(a))
    )
    strategies = lambda k, p: "[" + ", ".join(f'"{p}{i}"' for i in range(k)) + "]"
    return (f"game {name} {{\n    player Row in {strategies(len(a), 'r')}\n"
            f"    player Column in {strategies(len(a[0]), 'c')}\n    table [{rows}]\n}}\n")


def test_bimatrix_equilibria_match_nashpy_vertex_enumeration():
    nash = peer("nashpy")
    np = peer("numpy")
    rng = random.Random(SEED + 2)
    key = lambda x, y: tuple(round(float(p), 9) for p in list(x) + list(y))
    nondegenerate = degenerate = 0
    for k in range(40):
        m, n = rng.randint(2, 4), rng.randint(2, 4)
        # Small payoffs make ties, and so degenerate games, common: both kinds are met.
        top = rng.choice([3, 99])
        a = [[rng.randint(-top, top) for _ in range(n)] for _ in range(m)]
        b = [[rng.randint(-top, top) for _ in range(n)] for _ in range(m)]
        s = cgl.Session(timeout=30)
        s.load_source(bimatrix_source("G", a, b), name=f"bimatrix{k}.game")
        theirs = {key(x, y) for x, y in nash.Game(np.array(a), np.array(b)).vertex_enumeration()}
        # Every extreme equilibrium, for any game: the same set of points.
        extreme = s.eval("vertex_enumeration(G)")
        assert {key(x, y) for x, y in extreme} == theirs, (a, b)
        for x, y in extreme:
            assert sum(Fraction(p) for p in x) == 1 and sum(Fraction(p) for p in y) == 1
        try:
            ours = s.eval("equilibria(G)")
        except cgl.Error as e:
            # Support enumeration refuses a degenerate game (its equilibria may form a
            # continuum); vertex enumeration above still lists its extreme points.
            assert e.code == "cgl::eval::degenerate", e.rendered
            degenerate += 1
            continue
        assert {key(x, y) for x, y in ours} == theirs, (a, b)
        nondegenerate += 1
    assert nondegenerate >= 15 and degenerate >= 3, (nondegenerate, degenerate)


def test_extreme_equilibria_match_gambit_enummixed_exactly():
    """Every extreme equilibrium, as Gambit's enummixed (lrs, rational) lists them: the same
    exact fractions, on games with payoffs in ±10^6 (where nashpy's floating point lists
    spurious ones) and on degenerate ones with payoffs in -1..=1. The game goes to Gambit as
    cgl's `nfg(G)` writes it, so its reader reads cgl's writer too."""
    gbt = peer("pygambit")
    rng = random.Random(SEED + 3)
    degenerate = 0
    for k in range(30):
        m, n = rng.randint(2, 6), rng.randint(2, 6)
        top = rng.choice([1, 10**6])
        a = [[rng.randint(-top, top) for _ in range(n)] for _ in range(m)]
        b = [[rng.randint(-top, top) for _ in range(n)] for _ in range(m)]
        s = cgl.Session(timeout=60)
        s.load_source(bimatrix_source("G", a, b), name=f"gambit{k}.game")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "g.nfg"
            path.write_text(s.eval("nfg(G)"))
            game = gbt.read_nfg(str(path))
        theirs = set()
        for profile in gbt.nash.enummixed_solve(game, rational=True).equilibria:
            theirs.add(tuple(Fraction(str(p)) for player in ("Row", "Column")
                             for _, p in profile[player]))
        ours = {tuple(x) + tuple(y) for x, y in s.eval("vertex_enumeration(G)")}
        assert ours == theirs, (a, b)
        if s.eval("nash(G)")[0] == "vertex enumeration":
            degenerate += 1
    assert degenerate >= 5, degenerate
