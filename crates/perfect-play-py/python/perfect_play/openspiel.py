"""OpenSpiel games solved exactly by perfect-play's engine.

``solve(game)`` takes a ``pyspiel`` game that is sequential, deterministic, of perfect
information, for two players and zero-sum (or constant-sum); anything else is refused with the
reason. Positions are OpenSpiel states, told apart by their serialized form
(``state.serialize()``); the values are for the player to move, as everywhere in perfect-play.

>>> import pyspiel                                         # doctest: +SKIP
>>> from perfect_play import openspiel                     # doctest: +SKIP
>>> solution = openspiel.solve(pyspiel.load_game("tic_tac_toe"))   # doctest: +SKIP
>>> solution.value(solution.start_position)                # doctest: +SKIP
{'outcome': 'tie', 'remoteness': 9}
"""

from __future__ import annotations

from typing import Any, List, Optional

from . import MemoryLimit, Solution, solve_game

__all__ = ["Position", "solve"]


class Position:
    """An OpenSpiel state as a position: equal and hashed by its serialized form; ``state`` is
    the state itself, ``to_move`` the player to move (for a finished game, the one who would)."""

    __slots__ = ("key", "state", "to_move")

    def __init__(self, state: Any, to_move: int) -> None:
        self.state = state
        self.key = state.serialize()
        self.to_move = to_move

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key == other.key

    def __repr__(self) -> str:
        return f"Position({str(self.state)!r})"


def _refusal(game: Any) -> Optional[str]:
    import pyspiel

    kind = game.get_type()
    if game.num_players() != 2:
        return f"it has {game.num_players()} players, not two"
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        return "its players move at the same time (simultaneous dynamics), not in turn"
    if kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        return "it has chance events: perfect-play solves deterministic games"
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        return "it hides information: perfect-play solves games of perfect information"
    if kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM,
                            pyspiel.GameType.Utility.CONSTANT_SUM):
        return f"its utility is {kind.utility.name.lower()}, not zero-sum or constant-sum"
    return None


class _Adapter:
    """The ``Game`` protocol over an OpenSpiel game."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def start(self) -> Position:
        state = self.game.new_initial_state()
        return Position(state, state.current_player())

    def result(self, position: Position) -> Optional[str]:
        state = position.state
        if not state.is_terminal():
            return None
        mine = state.returns()[position.to_move]
        theirs = state.returns()[1 - position.to_move]
        if mine > theirs:
            return "win"
        if mine < theirs:
            return "loss"
        return "tie"

    def moves(self, position: Position) -> List[int]:
        return position.state.legal_actions()

    def play(self, position: Position, action: int) -> Position:
        state = position.state
        child = state.child(action)
        mover = state.current_player()
        if child.is_terminal():
            return Position(child, 1 - mover)
        if child.current_player() == mover:
            raise ValueError(
                f"player {mover} moves twice in a row after action {action}: perfect-play "
                "solves games where the players alternate")
        return Position(child, child.current_player())


def solve(game: Any, *, memory_limit: MemoryLimit = "2G", threads: int = 0,
          progress: bool = False) -> Solution:
    """Solve a ``pyspiel`` game exactly: every state reachable from the start, loops and draws
    included. Positions are ``Position`` objects (``solution.start_position``, or
    ``Position(state, state.current_player())`` for a state of your own)."""
    reason = _refusal(game)
    if reason is not None:
        raise ValueError(f"{game.get_type().short_name} cannot be solved: {reason}")
    return solve_game(_Adapter(game), memory_limit=memory_limit, threads=threads,
                      progress=progress)
