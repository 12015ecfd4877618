"""solve_game: games written in Python against a plain-Python minimax; loops, ties, errors."""

import functools
import signal
import threading

import pytest

import perfect_play


class TakeAway:
    """Take 1, 3 or 4 from a pile; the last to take wins."""

    def __init__(self, pile):
        self.pile = pile

    def start(self):
        return self.pile

    def moves(self, pile):
        return [t for t in (1, 3, 4) if t <= pile]

    def play(self, pile, take):
        return pile - take

    def result(self, pile):
        return None


class TicTacToe:
    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    def start(self):
        return "." * 9

    def mover(self, board):
        return "x" if board.count("x") == board.count("o") else "o"

    def moves(self, board):
        return [i for i, c in enumerate(board) if c == "."]

    def play(self, board, square):
        return board[:square] + self.mover(board) + board[square + 1:]

    def result(self, board):
        for a, b, c in self.LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return "loss"  # the player to move faces the line just made
        return "tie" if "." not in board else None


def minimax(game, position):
    """(outcome, remoteness) for the player to move, by plain recursion: acyclic games only."""

    @functools.lru_cache(maxsize=None)
    def value(p):
        r = game.result(p)
        if r is not None:
            return (r, 0)
        children = [value(game.play(p, m)) for m in game.moves(p)]
        if not children:
            return ("loss", 0)
        wins = [d for o, d in children if o == "loss"]
        if wins:
            return ("win", min(wins) + 1)
        ties = [d for o, d in children if o == "tie"]
        if ties:
            return ("tie", min(ties) + 1)
        return ("loss", max(d for _, d in children) + 1)

    return value(position)


def test_take_away_matches_minimax_everywhere():
    game = TakeAway(40)
    solution = perfect_play.solve_game(game)
    assert solution.counts["positions"] == 41
    for pile in range(41):
        outcome, remoteness = minimax(game, pile)
        assert solution.value(pile) == {"outcome": outcome, "remoteness": remoteness}


def test_tic_tac_toe_matches_minimax_on_every_position():
    game = TicTacToe()
    solution = perfect_play.solve_game(game)
    assert solution.counts["positions"] == 5478
    assert solution.value(game.start()) == {"outcome": "tie", "remoteness": 9}
    seen = [game.start()]
    checked = set()
    while seen:
        board = seen.pop()
        if board in checked:
            continue
        checked.add(board)
        outcome, remoteness = minimax(game, board)
        assert solution.value(board) == {"outcome": outcome, "remoteness": remoteness}, board
        if game.result(board) is None:
            seen.extend(game.play(board, m) for m in game.moves(board))
    assert len(checked) == 5478
    moves = solution.moves("x...o....")
    assert [m["outcome"] for m in moves][0] == "tie"
    assert all(set(m) == {"move", "outcome", "remoteness", "position"} for m in moves)
    assert len(solution.best_line()) == 9


class Loop:
    """A at the start may go to B or to a tie; B may only go back to A or to C, lost for the
    player to move there; D and E pass forever."""

    MOVES = {"A": ["B", "T"], "B": ["A", "C"], "C": [], "T": [], "D": ["E"], "E": ["D"]}

    def __init__(self, start="A"):
        self.first = start

    def start(self):
        return self.first

    def moves(self, p):
        return self.MOVES[p]

    def play(self, p, m):
        return m

    def result(self, p):
        return {"T": "tie"}.get(p)


def test_loops_ties_and_draws():
    solution = perfect_play.solve_game(Loop())
    # B wins at once by moving to C, so A avoids B and takes the tie.
    assert solution.value("B") == {"outcome": "win", "remoteness": 1}
    assert solution.value("A") == {"outcome": "tie", "remoteness": 1}
    assert solution.best_line() == ["T"]
    draw = perfect_play.solve_game(Loop("D"))
    assert draw.value("D") == {"outcome": "draw", "remoteness": None}
    assert draw.counts["draws"] == 2
    assert len(draw.best_line()) == 40


def test_a_position_not_reached_is_a_value_error():
    solution = perfect_play.solve_game(TakeAway(5))
    with pytest.raises(ValueError, match="not reached"):
        solution.value(6)


class Canonical(TakeAway):
    """TakeAway with positions as (pile, noise): canonical() drops the noise."""

    def start(self):
        return (self.pile, 0)

    def moves(self, p):
        return super().moves(p[0])

    def play(self, p, take):
        return (p[0] - take, take)

    def canonical(self, p):
        return (p[0], 0)


def test_canonical_is_honoured():
    solution = perfect_play.solve_game(Canonical(20))
    assert solution.counts["positions"] == 21
    assert solution.value((7, 3)) == solution.value((7, 0))


class Broken(TakeAway):
    def play(self, pile, take):
        if pile == 3:
            raise ZeroDivisionError("no")
        return pile - take


def test_the_games_exception_comes_out_with_the_position():
    with pytest.raises(ZeroDivisionError) as raised:
        perfect_play.solve_game(Broken(10))
    notes = getattr(raised.value, "__notes__", [])
    assert any("play() at position 3" in note for note in notes), notes


class BadResult(TakeAway):
    def result(self, pile):
        return "won" if pile == 0 else None


def test_a_bad_result_is_a_value_error():
    with pytest.raises(ValueError, match="expected None"):
        perfect_play.solve_game(BadResult(3))


class Endless:
    """Positions 0, 1, 2, ... forever: the memory limit must stop it."""

    def start(self):
        return 0

    def moves(self, p):
        return [1]

    def play(self, p, m):
        return p + m

    def result(self, p):
        return None


def test_memory_limit_refuses_with_the_figure():
    with pytest.raises(perfect_play.OverBudget, match="memory limit of 1 MiB"):
        perfect_play.solve_game(Endless(), memory_limit="1M")


def test_ctrl_c_raises_keyboard_interrupt_quickly():
    timer = threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        perfect_play.solve_game(Endless(), memory_limit="16G")
    timer.cancel()


def test_graphs_in_both_forms(tmp_path):
    small = {"start": "A", "moves": {"A": ["B", "C"], "B": ["A"], "C": []}, "results": {"C": "loss"}}
    solution = perfect_play.solve_graph(small)
    assert solution.value("A") == {"outcome": "win", "remoteness": 1}
    assert [m["move"] for m in solution.moves("A")] == ["C", "B"]
    edges = tmp_path / "g.txt"
    edges.write_text("A B\nA C\nB A\nC =loss\n")
    assert perfect_play.solve_graph(edges).value("B") == {"outcome": "loss", "remoteness": 2}
    bad = tmp_path / "bad.txt"
    bad.write_text("A B\nA B C\n")
    with pytest.raises(ValueError, match="line 2"):
        perfect_play.solve_graph(bad)


class EndlessMoves:
    """A game whose start has moves without end (``itertools.count()``)."""

    def start(self):
        return 0

    def moves(self, position):
        import itertools

        return itertools.count() if position == 0 else []

    def play(self, position, move):
        return move + 1

    def result(self, position):
        return None


def test_moves_without_end_stop_at_the_memory_limit():
    # Audit item 7: this ran to 7.4 GB under memory_limit='200M' and aborted the interpreter.
    import time

    began = time.monotonic()
    with pytest.raises(perfect_play.OverBudget, match="memory limit"):
        perfect_play.solve_game(EndlessMoves(), memory_limit="200M")
    assert time.monotonic() - began < 30


@pytest.mark.parametrize(
    "call",
    [
        lambda: perfect_play.values("0.77", -1),
        lambda: perfect_play.values("0.77", 2**64),
        lambda: perfect_play.values("0.77", "10"),
        lambda: perfect_play.solve_game(EndlessMoves(), threads=-1),
        lambda: perfect_play.solve_game(EndlessMoves(), threads=10**6),
        lambda: perfect_play.solve("tic-tac-toe", threads=2**64),
        lambda: perfect_play.solve_graph({"moves": {"A": []}}, threads=True),
    ],
)
def test_sizes_out_of_range_are_value_errors(call):
    # Audit items 11 and 16: OverflowError, or 10^6 threads started for 88 s.
    with pytest.raises(ValueError):
        call()


class Touchy:
    """A position whose ``__eq__`` raises (its hash collides on purpose)."""

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return 7

    def __eq__(self, other):
        raise RuntimeError("no comparing here")


class TouchyGame:
    def start(self):
        return Touchy(0)

    def moves(self, position):
        return [1, 2] if position.n < 3 else []

    def play(self, position, move):
        return Touchy(position.n + move)

    def result(self, position):
        return None


def test_an_exception_from_eq_comes_out():
    # Audit item 15: it was swallowed (the comparison taken as "not equal").
    with pytest.raises(RuntimeError, match="no comparing here"):
        perfect_play.solve_game(TouchyGame())
