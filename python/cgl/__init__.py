"""cgl, an interpreter for a language of combinatorial games, from Python.

    >>> import cgl
    >>> s = cgl.Session()
    >>> s.load_source("game Nim { position n  move k for k in 0..n }")
    >>> s.eval("grundy(Nim(3) + Nim(5))")
    6
    >>> s.eval("outcome(Nim(0))")
    <Outcome.P: 'P'>

Values become Python values: integers int, fractions fractions.Fraction, outcomes
cgl.Outcome, lists list, tuples (and split(...)) tuple, sets frozenset, ranges range,
strings str, true/false bool, none None, compound modes str; canonical forms that are not
numbers cgl.Value, games cgl.Game, positions cgl.Position (str() is cgl's printing).
"""

import enum

from ._cgl import Error, Expectation, Game, Position, Session, Value


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


__all__ = ["Error", "Expectation", "Game", "Outcome", "Position", "Session", "Value"]
