"""perfect-play from Python: who wins a two-player game under perfect play, with which move, and why.

The same answers as the ``perfect-play`` command and its HTTP API (one registry of games
underneath), and your own games solved by the same engine:

>>> import perfect_play
>>> perfect_play.nim([3, 4, 5])["outcome"]
'win'
>>> class TakeOneOrTwo:
...     def start(self): return 10
...     def moves(self, pile): return [t for t in (1, 2) if t <= pile]
...     def play(self, pile, take): return pile - take
...     def result(self, pile): return None    # no moves left: the player to move has lost
>>> perfect_play.solve_game(TakeOneOrTwo()).value(10)
{'outcome': 'win', 'remoteness': 7}
"""

from __future__ import annotations

import array
import json
import os
from typing import Any, Iterable, Mapping, Optional, Protocol, Sequence, Union, runtime_checkable

from . import _native
from ._native import OverBudget, Solution

__all__ = [
    "Game",
    "OverBudget",
    "PartizanGame",
    "Solution",
    "can_i_win",
    "coins",
    "games",
    "nim",
    "open_db",
    "query",
    "cgt",
    "solve",
    "solve_game",
    "solve_graph",
    "stones",
    "sum_of",
    "value_of",
    "values",
]

MemoryLimit = Union[int, str, None]
"""A memory limit: bytes, or a size such as ``"2G"``; ``None`` for the default."""


@runtime_checkable
class Game(Protocol):
    """What ``solve_game`` needs of a game: any class with these four methods.

    Positions are any hashable values; moves any values. ``result`` is ``None`` while the game
    goes on, else ``"win"``, ``"loss"`` or ``"tie"`` for the player to move at that position. A
    position with no moves and no result is lost by the player to move; endless play is a draw.
    An optional ``canonical(position)`` (one representative of its symmetry class) is honoured.
    """

    def start(self) -> Any: ...
    def moves(self, position: Any) -> Iterable[Any]: ...
    def play(self, position: Any, move: Any) -> Any: ...
    def result(self, position: Any) -> Optional[str]: ...


@runtime_checkable
class PartizanGame(Protocol):
    """What ``value_of`` needs of a partizan game: each side's moves, as the positions they
    lead to (hashable values, compared by ``==``).

    An optional ``components(position)`` splits a position into independent regions whose
    values add up (the regions are valued once each and remembered, so splitting pays).
    """

    def left_options(self, position: Any) -> Iterable[Any]: ...
    def right_options(self, position: Any) -> Iterable[Any]: ...


def value_of(game: PartizanGame, position: Any, *, to_move: str = "left",
             memory_limit: MemoryLimit = None) -> dict:
    """The value of ``position`` in your own partizan game, in Conway's sense.

    ``game.left_options(p)`` and ``game.right_options(p)`` list the positions Left and Right
    can move to. The answer is ``cgt``'s for the canonical form (``value``, ``outcome_class``,
    ``first_player_wins`` for ``to_move``, stops, temperature, mean, thermograph, reduced form,
    atomic weight ...) with ``left_moves`` and ``right_moves``: each option's ``position``,
    its ``value`` and whether it ``wins`` for the side that moves there.

    >>> class Stalk:       # a Hackenbush stalk: a string of "l" and "r" edges from the ground
    ...     def left_options(self, s): return [s[:i] for i, e in enumerate(s) if e == "l"]
    ...     def right_options(self, s): return [s[:i] for i, e in enumerate(s) if e == "r"]
    >>> value_of(Stalk(), "lrr")["value"]
    '1/4'

    An exception a method raises comes back with the position noted; a line of play longer
    than 100,000 moves raises ``ValueError``; more options than ``memory_limit`` holds raises
    ``OverBudget``. Ctrl-C stops the work.
    """
    return _native.value_of(game, position, to_move, memory_limit)


def _param_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def query(game: str, position: Union[str, Sequence[Any], None] = None, *,
          memory_limit: MemoryLimit = None, **params: Any) -> dict:
    """The answer ``perfect-play GAME ... --json`` prints and the HTTP API returns.

    ``game`` is a registry name (``games()`` lists them); ``position`` its notation (a list is
    joined with spaces: ``[3, 4, 5]``); parameters as the API names them (``misere=True``,
    ``moves=[1, 3, 4]``, ``size=4``). Bad input raises ``ValueError`` with the command's
    message; work past the memory limit raises ``OverBudget`` with the figure.
    """
    if isinstance(position, (list, tuple)):
        position = " ".join(str(p) for p in position)
    pairs = [(name, _param_text(value)) for name, value in params.items() if value is not None]
    return _native.query(game, position, pairs, memory_limit)


def games() -> list:
    """The names of every game ``query`` answers."""
    return list(_native.games())


def cgt(value: str, *, to_move: str = "left", cool: Union[str, int, None] = None,
        heat: Union[str, int, None] = None, compare: Optional[str] = None,
        memory_limit: MemoryLimit = None) -> dict:
    """A partizan value in CGSuite's notation, as ``perfect-play cgt VALUE --json`` tells it.

    ``cgt("{1|-1} + ^ + *")`` gives the canonical form, the outcome class and whether the
    player ``to_move`` (``"left"`` or ``"right"``) wins moving first, the stops, temperature,
    mean and thermograph, the reduced canonical form, options, incentives and the atomic
    weight; ``cool="1/2"`` or ``heat=1`` report the value cooled or heated, ``compare="*"``
    adds how it compares (``<``, ``=``, ``>`` or ``<>``). Bad input raises ``ValueError``.
    A position of a partizan game: ``query("domineering", "..|..", to_move="right")``.
    """
    as_text = lambda v: None if v is None else str(v)
    return _native.cgt(value, to_move, as_text(cool), as_text(heat), as_text(compare),
                       memory_limit)


def nim(heaps: Sequence[int], *, misere: bool = False) -> dict:
    """Nim with these heaps: ``nim([3, 4, 5])``."""
    return query("nim", list(heaps), misere=misere)


def can_i_win(max_choosable: int, desired_total: int, *, misere: bool = False) -> dict:
    """Can I Win: pick unused numbers from 1 to ``max_choosable``; reaching the total wins."""
    return query("can-i-win", [max_choosable, desired_total], misere=misere)


def coins(n: int, x: int, y: int, *, misere: bool = False) -> dict:
    """The coin game: a pile of ``n`` coins, take 1, ``x`` or ``y``; the last coin wins."""
    return query("coins", [n, x, y], misere=misere)


def stones(piles: Sequence[int], *, ties_win: bool = False) -> dict:
    """Stone Game: take the pile at either end of the row; the larger total wins."""
    return query("stones", list(piles), ties_win=ties_win or None)


def sum_of(components: Sequence[str], *, misere: bool = False) -> dict:
    """A sum of impartial games, ``GAME:HEAP`` each: ``sum_of(["0.77:10", "grundy:12"])``."""
    return query("sum", list(components), misere=misere)


#: The most worker threads a call may ask for: far past any machine's cores, short of a
#: count that would exhaust the system starting them.
MAX_THREADS = 1024


def _whole(name: str, value: Any, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, else ``ValueError`` naming it (not
    the ``OverflowError`` or ``TypeError`` the conversion to a machine integer would raise)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: expected a whole number from {low} to {high}, found {value!r:.40}")
    if not low <= value <= high:
        raise ValueError(f"{name}: {value} is out of range: expected a whole number from {low} to {high}")
    return value


def _threads(threads: Any) -> int:
    return _whole("threads", threads, 0, MAX_THREADS)


def values(game: str, upto: int) -> "array.array[int]":
    """The Grundy values of heaps ``0..=upto`` of an impartial heap game (``"0.77"``,
    ``"grundy"``, ``"subtract=1,3,4"``...), as a compact ``array.array('H')``: no Python int per
    value, and ``numpy.asarray`` reads it without a copy."""
    out = array.array("H")
    out.frombytes(_native.values_bytes(game, _whole("upto", upto, 0, 2**63 - 1)))
    if array.array("H", [1]).tobytes() != (1).to_bytes(2, "little"):
        out.byteswap()
    return out


def solve(game: str, *, memory_limit: MemoryLimit = None, threads: int = 0,
          db: Union[str, "os.PathLike[str]", None] = None, progress: bool = False,
          **params: Any) -> Solution:
    """Solve a game of the registry whole with the engine (``solve("quixo", size=3)``):
    positions in the game's notation (``value("x../..o/...:x")``, ``None`` for the start),
    every move's value, a best line, and how the reachable positions divide. With ``db``, a
    database there is read instead of solving (``ValueError`` if it holds another game), and a
    missing one is written (a solve cut short resumes from ``db + ".partial"``); the files are
    those of ``perfect-play solve GAME --db PATH``. ``progress``: a bar on stderr while the
    engine solves."""
    pairs = [(name, _param_text(value)) for name, value in params.items() if value is not None]
    path = None if db is None else os.fspath(db)
    return _native.solve(game, pairs, memory_limit, _threads(threads), path, progress)


def open_db(path: Union[str, "os.PathLike[str]"], *, memory_limit: MemoryLimit = None,
            threads: int = 0) -> Solution:
    """Open a database written by ``solve(..., db=...)`` or ``perfect-play solve GAME --db
    PATH``: the game and variant it holds are built from its header, its table read whole
    (two bytes a position; past ``memory_limit`` raises ``OverBudget``)."""
    return _native.open_db(os.fspath(path), memory_limit, _threads(threads))


def solve_game(game: Game, *, memory_limit: MemoryLimit = "2G", threads: int = 0,
               progress: bool = False) -> Solution:
    """Solve a game written in Python (see ``Game``): every position reachable from its start,
    loops, ties and draws included. Its methods are called once per position (``play`` once
    per move); the engine then solves the graph on every core without the GIL. An exception
    raised by the game's code comes out as that exception, noting the position; past
    ``memory_limit`` raises ``OverBudget`` with the figure. Ctrl-C stops it."""
    return _native.solve_game(game, memory_limit, _threads(threads), progress)


def solve_graph(source: Union[str, "os.PathLike[str]", Mapping[str, Any]], *,
                memory_limit: MemoryLimit = "2G", threads: int = 0) -> Solution:
    """Solve a game given as a graph: a dict in the JSON form
    (``{"start": "A", "moves": {"A": ["B", "C"], "B": ["A"], "C": []}, "results": {"C": "loss"}}``)
    or the path of a graph file (JSON, or an edge list: ``FROM TO`` lines, ``POSITION =win``)."""
    if isinstance(source, Mapping):
        return _native.solve_graph(json.dumps(source), True, memory_limit, _threads(threads))
    return _native.solve_graph(os.fspath(source), False, memory_limit, _threads(threads))
