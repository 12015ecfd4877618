"""query() answers exactly as the command line's --json does, for every registry game."""

import json
import os
import pathlib
import signal
import subprocess
import threading
import time

import pytest

import perfect_play

ROOT = pathlib.Path(__file__).resolve().parents[3]
BINARY = os.environ.get("PERFECT_PLAY_BIN", str(ROOT / "target" / "release" / "perfect-play"))


def cli(*args):
    out = subprocess.run([BINARY, *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


# One example per game: the query, and the same as command-line arguments.
EXAMPLES = [
    (("nim", "3 4 5"), {}, ["nim", "3", "4", "5"]),
    (("nim", "1 2 3"), {"misere": True}, ["nim", "1", "2", "3", "--misere"]),
    (("tic-tac-toe", "x...o...."), {}, ["tic-tac-toe", "x...o...."]),
    (("coins", "10 3 4"), {}, ["coins", "10", "3", "4"]),
    (("subtraction", "12 7"), {"moves": [1, 3, 4]}, ["subtraction", "--moves", "1,3,4", "12", "7"]),
    (("stones", "5 3 4 5"), {}, ["stones", "5", "3", "4", "5"]),
    (("octal", "0.77 10 12"), {}, ["octal", "0.77", "10", "12"]),
    (("can-i-win", "10 11"), {}, ["can-i-win", "10", "11"]),
    (("sum", "0.77:10 grundy:12"), {}, ["sum", "0.77:10", "grundy:12"]),
    (("connect-four", "2233"), {"width": 4, "height": 4}, ["connect-four", "2233", "--width", "4", "--height", "4"]),
    (("dodgem", None), {"size": 3}, ["dodgem", "--size", "3"]),
    (("mu-torere", None), {}, ["mu-torere"]),
    (("quixo", None), {"size": 3}, ["quixo", "--size", "3"]),
    (("teeko", None), {"size": 4, "pieces": 3}, ["teeko", "--size", "4", "--pieces", "3"]),
    (("dobutsu", None), {"animals": "c"}, ["dobutsu", "--animals", "c"]),
    (("hexapawn", None), {}, ["hexapawn"]),
    (("stone-game-2", "2 7 9 4 4"), {}, ["stone-game-2", "2", "7", "9", "4", "4"]),
    (("stone-game-2", "1 2 3"), {"m": 2}, ["stone-game-2", "--m", "2", "1", "2", "3"]),
    (("stone-game-3", "1 2 3 -9"), {}, ["stone-game-3", "1", "2", "3", "-9"]),
    (("stone-game-6", "2 4 3 / 1 6 7"), {}, ["stone-game-6", "2", "4", "3", "/", "1", "6", "7"]),
    (("stone-game-7", "5 3 1 4 2"), {"line": True}, ["stone-game-7", "--line", "5", "3", "1", "4", "2"]),
    (("stone-game-8", "7 -6 5 10 5 -2 -6"), {}, ["stone-game-8", "7", "-6", "5", "10", "5", "-2", "-6"]),
    (("stone-game-9", "1 1 3"), {"removed": 2, "second": True}, ["stone-game-9", "--removed", "2", "--second", "1", "1", "3"]),
    (("nim-game", "123456789012345678901234567"), {}, ["nim-game", "123456789012345678901234567"]),
    (("divisor-game", "360"), {}, ["divisor-game", "360"]),
    (("flip-game", "+++++-++"), {}, ["flip-game", "+++++-++"]),
    (("chalkboard-xor", "1 2 3 4"), {}, ["chalkboard-xor", "1", "2", "3", "4"]),
    (("guess-number", "3 40"), {}, ["guess-number", "3", "40"]),
    (("cat-and-mouse", "3 4 cat"), {"graph": "2,5/3/0,4,5/1,4,5/2,3/0,2,3"}, ["cat-and-mouse", "--graph", "2,5/3/0,4,5/1,4,5/2,3/0,2,3", "3", "4", "cat"]),
    (("domineering", "..|.."), {"to_move": "right"}, ["domineering", "--to-move", "right", "..|.."]),
    (("clobber", "xox|ox."), {}, ["clobber", "xox|ox."]),
    (("konane", "xo.ox.|.x.o.."), {}, ["konane", "xo.ox.|.x.o.."]),
    (("amazons", "x.#|..o"), {}, ["amazons", "x.#|..o"]),
    (("toads-and-frogs", "tft.tff"), {"to_move": "right"}, ["toads-and-frogs", "--to-move", "right", "tft.tff"]),
    (("hackenbush", "lrr,rl"), {}, ["hackenbush", "lrr,rl"]),
    (("cutcake", "4x3+2x2"), {}, ["cutcake", "4x3+2x2"]),
]


def test_every_registry_game_has_an_example():
    covered = {game for (game, _), _, _ in EXAMPLES}
    assert covered == set(perfect_play.games())


@pytest.mark.parametrize("call, params, args", EXAMPLES, ids=[e[2][0] for e in EXAMPLES])
def test_query_equals_the_command_lines_json(call, params, args):
    game, position = call
    assert perfect_play.query(game, position, **params) == cli(*args)


def test_a_7_by_6_position_is_searched_as_the_command_line_does():
    # connect_four_7x6_dev.txt (Pons' solver): "1755544276367766243177433654312 0 tie 11".
    moves = "1755544276367766243177433654312"
    ours, theirs = perfect_play.query("connect-four", moves), cli("connect-four", moves)
    assert ours["method"] == theirs["method"] == "search"
    for answer in (ours, theirs):
        del answer["seconds"], answer["nodes"]  # the time, and the nodes two threads share out
    assert ours == theirs
    assert (ours["outcome"], ours["remoteness"]) == ("tie", 11)


def test_the_shipped_book_answers_the_empty_7_by_6_board_at_once():
    # The empty board: the first player wins with the 41st disc (Allen, Allis 1988).
    start = perfect_play.query("connect-four", "")
    assert (start["method"], start["outcome"], start["remoteness"]) == ("book", "win", 41)
    assert start["book"]["shipped"] is True and len(start["moves"]) == 7
    late = perfect_play.query("connect-four", "1755544276367766243177433654312", book="none")
    assert late["method"] == "search" and "book" not in late
    with pytest.raises(ValueError, match="shipped"):
        perfect_play.query("connect-four", "", book="mine")


def test_boards_past_64_bits_are_searched_and_past_128_refused():
    # Christophe Steininger's c4, tst/data/10x6/endgame_L1.txt, first line (columns 0-based
    # there, one added here): score 8, a win in 5 plies for the player to move.
    moves = "1,10,2,10,5,1,2,1,1,5,9,2,9,1,9,7,5,9,2,10,5,9,10,5,8,3,5,9,8,2,8,1,10,3,6,2,10,8,4,7,7"
    wide = perfect_play.query("connect-four", moves, width=10, height=6)
    assert (wide["method"], wide["outcome"], wide["remoteness"]) == ("search", "win", 5)
    assert wide["moves"][0]["outcome"] == "win" and wide["width"] == 10
    with pytest.raises(ValueError, match="at most 128"):
        perfect_play.query("connect-four", "", width=16, height=8)


def test_convenience_functions():
    assert perfect_play.nim([3, 4, 5])["outcome"] == "win"
    assert perfect_play.nim([1, 2, 3])["outcome"] == "loss"
    assert perfect_play.can_i_win(10, 11)["first_player_wins"] is False
    assert perfect_play.coins(10, 3, 4)["winner"] == "A"
    assert perfect_play.stones([5, 3, 4, 5])["outcome"] == "win"
    assert perfect_play.sum_of(["nim:3", "nim:3"])["outcome"] == "loss"


def test_values_is_a_compact_array():
    kayles = perfect_play.values("0.77", upto=10_000)
    assert kayles.typecode == "H" and len(kayles) == 10_001
    assert list(kayles[:12]) == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    numpy = pytest.importorskip("numpy")
    view = numpy.asarray(kayles)
    view[0] = 99  # the same memory: no copy
    assert kayles[0] == 99


def test_bad_input_raises_value_error_with_the_message():
    with pytest.raises(ValueError, match='heap "x" is not a whole number'):
        perfect_play.query("nim", "3 x 5")
    with pytest.raises(ValueError, match="unknown game"):
        perfect_play.query("chess", "e4")
    with pytest.raises(ValueError, match="size"):
        perfect_play.query("quixo", None, size=99)


def test_over_the_memory_limit_raises_over_budget_with_the_figure():
    with pytest.raises(perfect_play.OverBudget, match="memory limit") as raised:
        perfect_play.query("connect-four", None, width=6, height=5, method="table", memory_limit="1M")
    assert isinstance(raised.value, RuntimeError)


def interrupted_after(seconds, call):
    """Ctrl-C `seconds` into `call`: the seconds until KeyboardInterrupt came out of it."""
    timer = threading.Timer(seconds, lambda: signal.raise_signal(signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    return time.perf_counter() - start


def test_ctrl_c_stops_a_query_estimated_long():
    # About 2 s of work (Can I Win 30/232, the estimate says so): it runs on the engine's
    # pool from the start, where Ctrl-C is looked for every 20 ms.
    assert interrupted_after(0.3, lambda: perfect_play.can_i_win(30, 232)) < 1.5


def test_quick_work_runs_on_the_calling_thread_and_long_work_moves_to_the_pool():
    probe = perfect_play._native._quick_first_probe
    assert probe(0.01) is True
    # No estimate, past the watchdog's limit (a quarter of a second): stopped there, done again
    # on the engine's pool.
    assert probe(0.6) is False


def test_ctrl_c_stops_work_with_no_estimate():
    # Ten seconds of work the watchdog moves to the pool, where Ctrl-C stops it.
    probe = perfect_play._native._quick_first_probe
    assert interrupted_after(0.5, lambda: probe(10.0)) < 2.0
    # Ctrl-C during quick work on the calling thread comes out of the call too.
    assert interrupted_after(0.05, lambda: probe(0.2)) < 1.0


def test_long_and_quick_queries_give_the_same_answers_as_the_command_line():
    # The same answers whichever thread the work ran on: at once, on the pool by its
    # estimate, and past the watchdog's limit without one.
    assert perfect_play.query("octal", "0.6 1000000") == cli("octal", "0.6", "1000000")
    assert perfect_play.query("sum", "squares:700000") == cli("sum", "squares:700000")
    assert perfect_play.query("coins", "10 3 4") == cli("coins", "10", "3", "4")


def test_solve_an_engine_game_whole():
    solution = perfect_play.solve("quixo", size=3)
    start = solution.value(None)
    assert start == {"outcome": "win", "remoteness": 7}
    # The same as the registry's answer for the start.
    answer = perfect_play.query("quixo", None, size=3)
    assert [m["move"] for m in solution.moves(None)] == [m["move"] for m in answer["moves"]]
    assert solution.best_line() == answer["best_line"]
    assert solution.counts["positions"] == 20257  # reachable with a move to make (README)
    with pytest.raises(ValueError):
        solution.value("xxx/...")
    with pytest.raises(ValueError, match="not a game the engine solves"):
        perfect_play.solve("nim")


def test_solve_into_a_database_then_open_it(tmp_path):
    path = tmp_path / "q3.ppdb"
    written = perfect_play.solve("quixo", size=3, db=path)
    assert path.exists() and not (tmp_path / "q3.ppdb.partial").exists()
    # Read back by solve (no solving: the file is the table) and by open_db (the game and
    # variant from the file's header), with the same values and counts.
    again = perfect_play.solve("quixo", size=3, db=path)
    opened = perfect_play.open_db(path)
    for solution in (again, opened):
        assert solution.value(None) == written.value(None) == {"outcome": "win", "remoteness": 7}
        assert solution.moves("xo./ox./...:x") == written.moves("xo./ox./...:x")
        assert solution.counts == written.counts
    # The command line reads the same file.
    assert cli("query", "quixo", "--size", "3", "--db", str(path))["outcome"] == "win"
    # Another game's file, a file too large for the memory limit, not a database at all.
    with pytest.raises(ValueError, match="holds quixo 3x3, not dodgem 3x3"):
        perfect_play.solve("dodgem", size=3, db=path)
    with pytest.raises(perfect_play.OverBudget, match="raise memory_limit"):
        perfect_play.open_db(path, memory_limit="1K")
    bogus = tmp_path / "bogus.ppdb"
    bogus.write_bytes(b"not a database")
    with pytest.raises(ValueError, match="bogus.ppdb"):
        perfect_play.open_db(bogus)


def test_an_opening_book_is_not_a_table(tmp_path):
    book = tmp_path / "c4-4x4-d2.ppdb"
    subprocess.run([BINARY, "book", "connect-four", "--width", "4", "--height", "4", "--depth", "2",
                    "--db", str(book)], check=True, capture_output=True)
    with pytest.raises(ValueError, match="opening book"):
        perfect_play.open_db(book)


def test_the_package_docstring_examples_run():
    import doctest

    assert doctest.testmod(perfect_play).failed == 0


def test_everything_public_has_a_docstring():
    for name in perfect_play.__all__:
        assert getattr(perfect_play, name).__doc__, name


def test_the_puzzles_refuse_bad_input_and_sizes_with_the_command_lines_message():
    with pytest.raises(ValueError, match="pile 0 is out of range"):
        perfect_play.query("stone-game-2", "0 1")
    with pytest.raises(ValueError, match="not a coin of Flip Game"):
        perfect_play.query("flip-game", "+x+")
    with pytest.raises(perfect_play.OverBudget, match="over the limit"):
        perfect_play.query("stone-game-2", " ".join(["5"] * 60000))


def test_cgt_values_and_partizan_games():
    import perfect_play as pp
    v = pp.cgt("{1|-1} + ^ + *")
    assert v["value"] == "{1^*|-1^*}"
    assert v["outcome_class"] == "N"
    hot = pp.cgt("{3|{2|1}}")
    assert (hot["temperature"], hot["mean"]) == ("3/4", "9/4")
    assert pp.cgt("{1|-1}", cool=1)["value"] == "*"
    assert pp.cgt("^", compare="*")["comparison"]["relation"] == "<>"
    assert pp.cgt("^")["atomic_weight"] == "1"
    with pytest.raises(ValueError):
        pp.cgt("{1|2|3}")
    with pytest.raises(ValueError):
        pp.cgt("^", to_move="up")
    a = pp.query("domineering", "..|..", to_move="right")
    assert a["value"] == "+-1" and a["player"] == "right" and a["first_player_wins"]
    assert a["moves"][0]["to_move"] == "left"
    assert pp.query("toads-and-frogs", "tft.tff")["value"] == "^"
    for game in ["domineering", "clobber", "konane", "amazons", "toads-and-frogs",
                 "hackenbush", "cutcake"]:
        assert game in pp.games()
