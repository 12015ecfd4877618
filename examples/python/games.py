"""Three games written in Python for perfect_play.solve_game (and the benchmark beside them)."""


class TicTacToe:
    """Boards as two 9-bit integers, the marks of the player to move and of the other (the
    way fast solvers keep them); squares 0-8 row by row, x first."""

    LINES = [sum(1 << i for i in line) for line in
             [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]]
    FULL = (1 << 9) - 1

    def start(self):
        return (0, 0)

    def moves(self, board):
        taken = board[0] | board[1]
        return [i for i in range(9) if not taken >> i & 1]

    def play(self, board, square):
        mine, theirs = board
        return (theirs, mine | 1 << square)

    def result(self, board):
        mine, theirs = board
        for line in self.LINES:
            if theirs & line == line:
                return "loss"  # the line was just made by the opponent
        return "tie" if mine | theirs == self.FULL else None


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
    edge, o's drive up and leave off the top; first to take all its cars off wins. Cars as
    bits of an integer (cell r * n + c, row 0 at the top); positions are (x's cars, o's cars,
    x to move). Moves are (the car's bit, the bit it drives to, 0 for off the board)."""

    def __init__(self, n=3):
        self.n = n
        cells = n * n
        self.full = (1 << cells) - 1
        self.last_column = sum(1 << (r * n + n - 1) for r in range(n))
        self.first_column = self.last_column >> (n - 1)
        self.top_row = (1 << n) - 1
        # Each cell's steps for each side: forward first, None for off the board.
        def steps(i, forward, sideways):
            r, c = divmod(i, n)
            out = []
            for dr, dc in (forward, *sideways):
                nr, nc = r + dr, c + dc
                if (dr, dc) == forward and not (0 <= nr < n and 0 <= nc < n):
                    out.append(0)  # off the board: the car's exit
                elif 0 <= nr < n and 0 <= nc < n:
                    out.append(1 << (nr * n + nc))
            return out

        self.x_steps = [steps(i, (0, 1), ((-1, 0), (1, 0))) for i in range(cells)]
        self.o_steps = [steps(i, (-1, 0), ((0, -1), (0, 1))) for i in range(cells)]

    def start(self):
        n = self.n
        xs = sum(1 << (r * n) for r in range(n - 1))
        os = sum(1 << ((n - 1) * n + c) for c in range(1, n))
        return (xs, os, True)

    def moves(self, position):
        xs, os, x_to_move = position
        mine, steps = (xs, self.x_steps) if x_to_move else (os, self.o_steps)
        cars = xs | os
        moves = []
        while mine:
            car = mine & -mine
            mine ^= car
            for to in steps[car.bit_length() - 1]:
                if not to & cars:
                    moves.append((car, to))
        return moves

    def play(self, position, move):
        xs, os, x_to_move = position
        car, to = move
        if x_to_move:
            return (xs ^ car | to, os, False)
        return (xs, os ^ car | to, True)

    def result(self, position):
        xs, os, x_to_move = position
        # The player who just moved took their last car off: the player to move has lost.
        if not (os if x_to_move else xs):
            return "loss"
        # Winning Ways' rule: leaving the opponent no move loses, so a player blocked wins.
        # A car can move when it can leave, or a cell it drives to is free.
        free = self.full & ~(xs | os)
        n = self.n
        if x_to_move:
            movable = (xs & self.last_column or ((xs & ~self.last_column) << 1) & free
                       or (xs >> n) & free or (xs << n) & free)
        else:
            movable = (os & self.top_row or (os >> n) & free
                       or ((os & ~self.first_column) >> 1) & free
                       or ((os & ~self.last_column) << 1) & free)
        return None if movable else "win"
