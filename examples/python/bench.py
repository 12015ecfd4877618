"""Games written in Python solved by perfect_play.solve_game, against a plain-Python
retrograde solver of the same game in the same run, and against the time the game's own
methods take (one result(), one moves() and a play() per move for every position, the calls
solve_game makes); each time the best of three. BENCHMARKS.md records its output.

    python examples/python/bench.py
"""

import collections
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import games  # noqa: E402
import perfect_play  # noqa: E402


def explore(game):
    """The game's own methods on every position, numbered by a dict: their time alone."""
    index = {game.start(): 0}
    order = [game.start()]
    children = []
    results = []
    i = 0
    while i < len(order):
        p = order[i]
        r = game.result(p)
        results.append(r)
        kids = []
        if r is None:
            for m in game.moves(p):
                q = game.play(p, m)
                j = index.get(q)
                if j is None:
                    j = index[q] = len(order)
                    order.append(q)
                kids.append(j)
        children.append(kids)
        i += 1
    return order, children, results


def plain_retrograde(game):
    """Wins and losses with remoteness of every position in plain Python: child counters and
    a queue by remoteness (the textbook method), after the same exploration; the positions
    left are ties or draws (not told apart here)."""
    order, children, results = explore(game)
    n = len(order)
    parents = [[] for _ in range(n)]
    for p, kids in enumerate(children):
        for k in kids:
            parents[k].append(p)
    value = [None] * n
    open_moves = [len(k) for k in children]
    farthest = [0] * n
    queue = collections.deque()
    for p in range(n):
        if results[p] is not None or not children[p]:
            value[p] = (results[p] or "loss", 0)
            queue.append(p)
    while queue:
        c = queue.popleft()
        outcome, r = value[c]
        if outcome == "tie":
            continue
        for p in parents[c]:
            if value[p] is not None:
                continue
            if outcome == "loss":
                value[p] = ("win", r + 1)
                queue.append(p)
            else:
                open_moves[p] -= 1
                farthest[p] = max(farthest[p], r + 1)
                if open_moves[p] == 0:
                    value[p] = ("loss", farthest[p])
                    queue.append(p)
    return {order[p]: (value[p] or ("draw", None)) for p in range(n)}


def best_of(rounds, work):
    """The work's result and its best time of `rounds` (other work on the machine only
    slows it; the small games take milliseconds)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return result, best


def main():
    rows = []
    for name, game in [
        ("tic-tac-toe", games.TicTacToe()),
        ("Dodgem 3 x 3", games.Dodgem(3)),
        ("Connect Four 4 x 4", games.ConnectFour(4, 4)),
    ]:
        (order, _, _), methods = best_of(3, lambda: explore(game))
        solution, solved = best_of(3, lambda: perfect_play.solve_game(game))
        plain, plain_time = best_of(3, lambda: plain_retrograde(game))
        positions = solution.counts["positions"]
        assert positions == len(order)
        # The two agree wherever the plain solver decides (it leaves loopy ties to draws).
        for p, (outcome, r) in plain.items():
            if outcome in ("win", "loss"):
                assert solution.value(p) == {"outcome": outcome, "remoteness": r}, (name, p)
        rows.append((name, positions, solved, positions / solved, methods, solved / methods,
                     plain_time, solution.value(game.start())))
    print("| game | positions | solve_game | positions/s | its methods alone | ratio | plain Python | start |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, solved, rate, methods, ratio, plain_time, start in rows:
        print(f"| {name} | {n:,} | {solved * 1e3:.1f} ms | {rate:,.0f} | {methods * 1e3:.1f} ms "
              f"| {ratio:.2f}x | {plain_time * 1e3:.1f} ms | {start['outcome']} in {start['remoteness']} |")

if __name__ == "__main__":
    main()
