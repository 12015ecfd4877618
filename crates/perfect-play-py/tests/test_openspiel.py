"""perfect_play.openspiel against OpenSpiel's own exact values."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

from perfect_play import openspiel  # noqa: E402


def player_zero_value(solution, position):
    """The value for player 0 (+1, 0, -1) from perfect-play's value for the player to move."""
    outcome = solution.value(position)["outcome"]
    sign = {"win": 1, "loss": -1, "tie": 0, "draw": 0}[outcome]
    return sign if position.to_move == 0 else -sign


def check_every_state(game, solution):
    """Every distinct state the solution reaches against OpenSpiel's alpha-beta search (its
    exact minimax value for player 0)."""
    from open_spiel.python.algorithms import minimax

    checked = 0
    stack = [solution.start_position]
    seen = set()
    while stack:
        position = stack.pop()
        key = str(position.state)
        if key in seen:
            continue
        seen.add(key)
        state = position.state
        if state.is_terminal():
            expected = state.returns()[0]
        else:
            expected, _ = minimax.alpha_beta_search(game, state=state.clone(),
                                                    maximizing_player_id=0)
        assert player_zero_value(solution, position) == round(expected), key
        checked += 1
        stack.extend(m["position"] for m in solution.moves(position))
    return checked


def test_tic_tac_toe_agrees_with_openspiels_value_iteration():
    game = pyspiel.load_game("tic_tac_toe")
    solution = openspiel.solve(game)
    assert solution.value(solution.start_position) == {"outcome": "tie", "remoteness": 9}
    assert check_every_state(game, solution) == 5478


def test_nim_agrees_with_openspiel():
    game = pyspiel.load_game("nim", {"pile_sizes": "1;2;3;4"})
    solution = openspiel.solve(game)
    # 1 ^ 2 ^ 3 ^ 4 = 4: the first player wins.
    assert solution.value(solution.start_position)["outcome"] == "win"
    assert check_every_state(game, solution) > 0


def test_games_outside_the_model_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="chance"):
        openspiel.solve(pyspiel.load_game("backgammon"))
    with pytest.raises(ValueError, match="perfect information|chance"):
        openspiel.solve(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="players"):
        openspiel.solve(pyspiel.load_game("kuhn_poker", {"players": 3}))
