"""Three games written in Python for perfect_play.solve_game (and the benchmark beside them)."""


class TicTacToe:
    """Boards as 9-character strings, x first."""

    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    def start(self):
        return "." * 9

    def moves(self, board):
        return [i for i, c in enumerate(board) if c == "."]

    def play(self, board, square):
        mark = "x" if board.count("x") == board.count("o") else "o"
        return board[:square] + mark + board[square + 1:]

    def result(self, board):
        for a, b, c in self.LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return "loss"  # the line was just made by the opponent
        return "tie" if "." not in board else None


class ConnectFour:
    """Connect Four on a width x height board as two integers, the way fast solvers keep it
    (Pascal Pons' layout): a column is height + 1 bits, the stones of the player to move and
    every stone. Four in a row wins."""

    def __init__(self, width=4, height=4):
        self.width, self.height = width, height
        h1 = height + 1
        self.bottom = [1 << (c * h1) for c in range(width)]
        self.top = [1 << (c * h1 + height - 1) for c in range(width)]
        self.full = sum(((1 << height) - 1) << (c * h1) for c in range(width))
        self.shifts = (1, h1, h1 - 1, h1 + 1)

    def start(self):
        return (0, 0)  # (the mover's stones, every stone)

    def moves(self, position):
        mask = position[1]
        return [c for c in range(self.width) if not mask & self.top[c]]

    def play(self, position, c):
        current, mask = position
        return (current ^ mask, mask | (mask + self.bottom[c]))

    def result(self, position):
        current, mask = position
        opponent = current ^ mask
        for s in self.shifts:
            m = opponent & (opponent >> s)
            if m & (m >> (2 * s)):
                return "loss"  # the opponent has just made four
        return "tie" if mask == self.full else None


class Dodgem:
    """Colin Vout's Dodgem on an n x n board: x's cars drive right and leave off the right
    edge, o's drive up and leave off the top; first to take all its cars off wins. Positions:
    (x cars, o cars, x to move), cars as (column, row) with row 0 at the top."""

    def __init__(self, n=3):
        self.n = n

    def start(self):
        n = self.n
        xs = frozenset((0, r) for r in range(n - 1))
        os = frozenset((c, n - 1) for c in range(1, n))
        return (xs, os, True)

    def moves(self, position):
        xs, os, x_to_move = position
        n, cars = self.n, xs | os
        moves = []
        for (c, r) in (xs if x_to_move else os):
            steps = ((1, 0), (0, -1), (0, 1)) if x_to_move else ((0, -1), (-1, 0), (1, 0))
            for dc, dr in steps:
                nc, nr = c + dc, r + dr
                if x_to_move and nc == n:
                    moves.append(((c, r), None))  # off the right edge
                elif not x_to_move and nr == -1:
                    moves.append(((c, r), None))  # off the top
                elif 0 <= nc < n and 0 <= nr < n and (nc, nr) not in cars:
                    moves.append(((c, r), (nc, nr)))
        return moves

    def play(self, position, move):
        xs, os, x_to_move = position
        car, to = move
        mine = xs if x_to_move else os
        mine = (mine - {car}) | ({to} if to else set())
        mine = frozenset(mine)
        return (mine, os, False) if x_to_move else (xs, mine, True)

    def result(self, position):
        xs, os, x_to_move = position
        # The player who just moved took their last car off: the player to move has lost.
        if (not os) if x_to_move else (not xs):
            return "loss"
        # Winning Ways' rule: leaving the opponent no move loses, so a player blocked wins.
        if not self.moves(position):
            return "win"
        return None
