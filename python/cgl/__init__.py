"""cgl, an interpreter for a language of combinatorial games, from Python.

    >>> import cgl
    >>> s = cgl.Session()
    >>> s.load_source("game Nim { position n  move k for k in 0..n }")
    >>> s.eval("grundy(Nim(3) + Nim(5))")
    6
    >>> s.eval("outcome(Nim(0))")
    <Outcome.P: 'P'>
    >>> nim = s.game("Nim")
    >>> (nim(3) + nim(5)).grundy()
    6
    >>> s.eval("moves(p)", p=nim(2))
    [cgl.Position('Nim(0)'), cgl.Position('Nim(1)')]

Values become Python values: integers int, fractions fractions.Fraction, outcomes
cgl.Outcome, lists list, tuples (and split(...)) tuple, sets frozenset, ranges range,
strings str, true/false bool, none None, compound modes str; canonical forms that are not
numbers cgl.Value, games cgl.Game, positions cgl.Position. Each of these can be given back,
as a keyword argument of `eval` (a name in the expression) or to a method.

Every call computes on the session's own thread with the GIL released; Ctrl-C (a notebook's
interrupt) stops it with KeyboardInterrupt and leaves the session usable. Limits (`timeout`
in seconds, `max_memory` in bytes, `max_positions`) can be given to `Session(...)` for every
call, or to one call.
"""

import enum
from fractions import Fraction

from . import _cgl
from ._cgl import Error, Expectation, Handle

__all__ = [
    "Error", "Expectation", "Game", "Outcome", "Position", "Session", "Table", "Value",
]


class Outcome(enum.Enum):
    """An outcome class: N (the next player wins), P (the previous player), L (Left),
    R (Right), D (a draw)."""

    N = "N"
    P = "P"
    L = "L"
    R = "R"
    D = "D"

    def __str__(self):
        return self.value


class _Held:
    """What a session holds for Python: a position, a game value or a game."""

    __slots__ = ("_h", "_s")

    def __init__(self, handle, session):
        self._h = handle
        self._s = session

    def __str__(self):
        return self._h.text

    def __repr__(self):
        return f"cgl.{type(self).__name__}({self._h.text!r})"

    def __hash__(self):
        return hash((type(self).__name__, self._h.text))

    def _call(self, function, *args):
        """`function(self, args...)` evaluated in the session."""
        names = {f"a{i}": a for i, a in enumerate(args)}
        inside = ", ".join(["self"] + list(names))
        return self._s.eval(f"{function}({inside})", self=self, **names)

    def _op(self, expr, other):
        try:
            return self._s.eval(expr, a=self, b=other)
        except (TypeError, ValueError):
            return NotImplemented


class Value(_Held):
    """A canonical form that is not a number (`*`, `^`, `{2 | -1/2}`); `str()` writes it as
    CGSuite does. Compared as games (`<`, `<=`, `>`, `>=` are the partial order: a confused
    pair has all four false, and `confused` true), added and negated as games. In a notebook
    it is drawn as its thermograph."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, Value):
            # Canonical forms are unique: equal games print alike.
            return self._h.text == other._h.text
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return False
        return NotImplemented

    __hash__ = _Held.__hash__

    def __lt__(self, other):
        return self._op("a < b", other)

    def __le__(self, other):
        return self._op("a <= b", other)

    def __gt__(self, other):
        return self._op("a > b", other)

    def __ge__(self, other):
        return self._op("a >= b", other)

    def __add__(self, other):
        return self._op("a + b", other)

    def __radd__(self, other):
        return self._op("b + a", other)

    def __sub__(self, other):
        return self._op("a - b", other)

    def __rsub__(self, other):
        return self._op("b - a", other)

    def __neg__(self):
        return self._s.eval("-a", a=self)

    def confused(self, other):
        """Whether this game is confused with (incomparable to) `other`."""
        return self._call("confused", other)

    @property
    def left_options(self):
        """Left's options, canonical, in cgl's order."""
        return self._call("left_options")

    @property
    def right_options(self):
        """Right's options, canonical, in cgl's order."""
        return self._call("right_options")

    def temperature(self):
        return self._call("temperature")

    def mean(self):
        return self._call("mean")

    def left_stop(self):
        return self._call("left_stop")

    def right_stop(self):
        return self._call("right_stop")

    def birthday(self):
        return self._call("birthday")

    def outcome(self):
        """L (> 0), R (< 0), N (confused with 0) or P (= 0, never for a cgl.Value)."""
        return self._call("outcome")

    def thermograph(self):
        """The walls: (left, right), each a list of (temperature, value) breakpoints."""
        return self._call("thermograph")

    def _repr_svg_(self):
        return self._s._thermograph(self._h)


class Position(_Held):
    """A position, or a compound of positions: `str()` is cgl's printing of it. Added with
    `+` (the disjunctive sum); in a notebook, drawn by its game's `show` clause."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, Position):
            return self._s.eval("a == b", a=self, b=other)
        return NotImplemented

    __hash__ = _Held.__hash__

    def __add__(self, other):
        return self._op("a + b", other)

    def outcome(self):
        return self._call("outcome")

    def grundy(self):
        return self._call("grundy")

    def remoteness(self):
        return self._call("remoteness")

    def value(self):
        """Its game value: an int, a Fraction or a cgl.Value."""
        return self._call("value")

    def moves(self, side=None):
        """Its options; in a partizan game those of `side` (cgl.Outcome.L or .R)."""
        return self._call("moves") if side is None else self._call("moves", side)

    def winning_moves(self):
        return self._call("winning_moves")

    def line(self):
        """A line of perfect play from here."""
        return self._call("line")

    def picture(self):
        """Its picture (its game's `show` clause) as text, or None."""
        return self._s._picture(self._h)

    def _repr_svg_(self):
        picture = self.picture()
        return None if picture is None else _picture_svg(picture)


class Game(_Held):
    """A game with its parameters (`Subtraction[S = {1, 2}]`); call it for a position:
    `s.game("Kayles")(10)`."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, Game):
            return self._h.text == other._h.text
        return NotImplemented

    __hash__ = _Held.__hash__

    def __call__(self, *args):
        names = {f"a{i}": a for i, a in enumerate(args)}
        return self._s.eval(f"g({', '.join(names)})", g=self, **names)


_KINDS = {"position": Position, "value": Value, "game": Game}


def _wrap(handle, session):
    """A held value as its Python class (called by the compiled part)."""
    return _KINDS[handle.kind](handle, session)


def _escape(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _picture_svg(picture):
    """A text picture as SVG: a line of monospaced text a line of the picture."""
    lines = picture.split("\n")
    width = max((len(l) for l in lines), default=0) * 10 + 20
    height = len(lines) * 20 + 20
    spans = "".join(
        f'<tspan x="10" dy="20" xml:space="preserve">{_escape(l)}</tspan>' for l in lines
    )
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="DejaVu Sans Mono, monospace" font-size="16">'
            f'<rect width="100%" height="100%" fill="white"/><text y="0">{spans}</text></svg>')


def _cell_style(value):
    """The page's colours: 0, P and true stand out; a draw is grey."""
    if value is True or value == 0 and not isinstance(value, bool) or value is Outcome.P:
        return ' style="background:#1f2328;color:#fff"'
    if value is Outcome.D:
        return ' style="background:#ddd"'
    return ""


class Table:
    """An expression over one variable's values (`rows`: (value of the variable, value)) or
    two (`grid`: rows by columns). In a notebook: an HTML table, and the picture `cgl plot`
    draws of it (when its values are integers, booleans or outcomes)."""

    def __init__(self, expr, found):
        self.expr = expr
        self.vars = found["vars"]
        self.cells = found["cells"]
        self.svg = found["svg"]

    @property
    def rows(self):
        """(row's value, value) for one variable; ((row, column), value) for two."""
        if len(self.vars) == 1:
            return [(at[0], v) for at, v in self.cells]
        return [(tuple(at), v) for at, v in self.cells]

    def values(self):
        """The values alone, in order."""
        return [v for _, v in self.cells]

    def __repr__(self):
        return f"cgl.Table({self.expr!r} over {', '.join(self.vars)}: {len(self.cells)} cells)"

    def _repr_svg_(self):
        return self.svg

    def _repr_html_(self):
        head = f"<caption>{_escape(self.expr)}</caption>"
        if len(self.vars) == 1:
            rows = "".join(
                f"<tr><th>{_escape(str(at[0]))}</th><td{_cell_style(v)}>{_escape(str(v))}</td></tr>"
                for at, v in self.cells
            )
            body = f"<tr><th>{_escape(self.vars[0])}</th><th>value</th></tr>{rows}"
        else:
            rows, cols = [], []
            grid = {}
            for (r, c), v in ((tuple(at), v) for at, v in self.cells):
                if r not in grid:
                    rows.append(r)
                    grid[r] = {}
                if c not in cols:
                    cols.append(c)
                grid[r][c] = v
            top = "".join(f"<th>{_escape(str(c))}</th>" for c in cols)
            body = f"<tr><th>{_escape(self.vars[0])} \\ {_escape(self.vars[1])}</th>{top}</tr>"
            for r in rows:
                tds = "".join(
                    f"<td{_cell_style(grid[r][c])}>{_escape(str(grid[r][c]))}</td>"
                    if c in grid[r] else "<td></td>" for c in cols
                )
                body += f"<tr><th>{_escape(str(r))}</th>{tds}</tr>"
        picture = f"<div>{self.svg}</div>" if self.svg else ""
        return (f'<div style="display:flex;gap:1em;align-items:flex-start">'
                f'<table>{head}{body}</table>{picture}</div>')


class Session(_cgl.Session):
    """A cgl session: load files, then evaluate in their scope (see the module's doc)."""

    def game(self, name):
        """The game `name` (with its default parameters) as a callable cgl.Game."""
        found = self.eval(name)
        if not isinstance(found, Game):
            raise TypeError(f"{name} is {found!r}, not a game")
        return found

    def table(self, expr, *, timeout=None, max_memory=None, max_positions=None, **vars):
        """`expr` over each keyword's values, one keyword (a table) or two (a grid, rows
        then columns): `s.table("grundy(Kayles(n))", n=range(20))`."""
        found = self._tabulate(expr, list(vars.items()), None, timeout, max_memory,
                               max_positions)
        return Table(expr, found)

    def equilibria(self, game, **limits):
        """The Nash equilibria of a two-player strategic game, as `nash` finds them: a list
        of (x, y), each a list of Fractions (a mixed strategy, one probability a strategy)."""
        _, _, found = self.eval("nash(g)", g=game, **limits)
        return [tuple([Fraction(p) for p in mixed] for mixed in eq) for eq in found]
