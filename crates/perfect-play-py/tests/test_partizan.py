"""Partizan games written in Python, valued by the library (``perfect_play.value_of``):
checked against the registry's own games on every small position, and refused cleanly."""

import itertools

import pytest

import perfect_play as pp


class Stalks:
    """Hackenbush stalks: a tuple of strings of l, r and e edges, from the ground up."""

    def _cuts(self, stalks, colours):
        for s, stalk in enumerate(stalks):
            for i, edge in enumerate(stalk):
                if edge in colours:
                    rest = stalks[:s] + (stalk[:i],) + stalks[s + 1:]
                    yield tuple(sorted(x for x in rest if x))

    def left_options(self, stalks):
        return list(self._cuts(stalks, "le"))

    def right_options(self, stalks):
        return list(self._cuts(stalks, "re"))


class SplitStalks(Stalks):
    """The same game, its stalks valued apart."""

    def components(self, stalks):
        return [(s,) for s in stalks]


class Domineering:
    """Rows of "." (empty) and "#" (covered) as a tuple of strings: Left places dominoes
    down a column, Right along a row."""

    def _place(self, rows, cells):
        out = [list(r) for r in rows]
        for r, c in cells:
            out[r][c] = "#"
        return tuple("".join(r) for r in out)

    def left_options(self, rows):
        return [self._place(rows, [(r, c), (r + 1, c)])
                for r in range(len(rows) - 1) for c in range(len(rows[0]))
                if rows[r][c] == "." and rows[r + 1][c] == "."]

    def right_options(self, rows):
        return [self._place(rows, [(r, c), (r, c + 1)])
                for r in range(len(rows)) for c in range(len(rows[0]) - 1)
                if rows[r][c] == "." and rows[r][c + 1] == "."]


def test_every_stalk_up_to_five_edges_is_valued_as_the_registry_values_it():
    for n in range(1, 6):
        for edges in itertools.product("lre", repeat=n):
            stalk = "".join(edges)
            mine = pp.value_of(Stalks(), (stalk,))
            theirs = pp.query("hackenbush", stalk)
            assert mine["value"] == theirs["value"], stalk
            assert mine["temperature"] == theirs["temperature"], stalk


def test_every_two_by_three_domineering_board_agrees_with_the_registry():
    for cells in itertools.product(".#", repeat=6):
        rows = ("".join(cells[:3]), "".join(cells[3:]))
        for side in ["left", "right"]:
            mine = pp.value_of(Domineering(), rows, to_move=side)
            theirs = pp.query("domineering", "|".join(rows), to_move=side)
            assert mine["value"] == theirs["value"], rows
            assert mine["first_player_wins"] == theirs["first_player_wins"], rows
            wins = lambda moves: sorted(m["wins"] for m in moves)
            assert wins(mine["left_moves"]) == wins(theirs["left_moves"]), rows
            assert wins(mine["right_moves"]) == wins(theirs["right_moves"]), rows


def test_components_are_valued_apart_and_add_up():
    whole = pp.value_of(Stalks(), ("lrr", "rl", "e"))
    split = pp.value_of(SplitStalks(), ("lrr", "rl", "e"))
    assert whole["value"] == split["value"] == pp.query("hackenbush", "lrr,rl,e")["value"]
    assert split["value"] == "-1/4*"


def test_the_moves_are_the_positions_the_game_gave():
    answer = pp.value_of(Stalks(), ("lrr",))
    assert [m["position"] for m in answer["left_moves"]] == [()]
    assert {m["position"] for m in answer["right_moves"]} == {("l",), ("lr",)}
    assert all(isinstance(m["value"], str) for m in answer["right_moves"])
    assert answer["left_moves"][0]["wins"]


def test_a_bad_game_is_refused_with_the_reason():
    class Raises(Stalks):
        def right_options(self, stalks):
            raise KeyError("no such edge")

    with pytest.raises(KeyError) as raised:
        pp.value_of(Raises(), ("lr",))
    assert any("right_options" in note for note in getattr(raised.value, "__notes__", []))

    class Loops:
        def left_options(self, p):
            return [p]

        def right_options(self, p):
            return []

    with pytest.raises(ValueError, match="longer than 100000 moves"):
        pp.value_of(Loops(), 0)

    class NoRight:
        def left_options(self, p):
            return []

    with pytest.raises(ValueError, match="right_options"):
        pp.value_of(NoRight(), 0)
    with pytest.raises(TypeError):
        pp.value_of(Stalks(), ["unhashable"])
    with pytest.raises(ValueError, match="left or right"):
        pp.value_of(Stalks(), ("l",), to_move="up")
    with pytest.raises(pp.OverBudget):
        pp.value_of(Domineering(), ("....", "....", "...."), memory_limit=10_000)


def test_a_long_line_of_play_is_followed():
    class Countdown:
        def left_options(self, n):
            return [n - 1] if n > 0 else []

        def right_options(self, n):
            return []

    assert pp.value_of(Countdown(), 50_000)["value"] == "50000"


def test_ctrl_c_stops_the_work_and_raises_keyboard_interrupt():
    import _thread
    import threading
    import time

    class Slow(Domineering):
        def left_options(self, rows):
            time.sleep(0.0005)
            return super().left_options(rows)

    threading.Timer(0.3, _thread.interrupt_main).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pp.value_of(Slow(), ("....",) * 5)
    assert time.monotonic() - started < 10
    # The work stopped cleanly: the next call answers.
    assert pp.value_of(Domineering(), ("..", ".."))["value"] == "+-1"
