"""ChessMoveQ: the seed's seven cases with their reasons, the rules one by one, and bad input.

The comparison with python-chess on random positions is in test_chessmoveq_oracle.py.
"""

from __future__ import annotations

import pytest

from board.errors import InputError
from board.puzzles.chessmoveq import (
    Answer,
    ChessMoveQError,
    answer,
    answer_from_facts,
    build_position,
    explain,
    gather_facts,
    intent_for,
    is_valid_move,
    parse_json_case,
    parse_json_move,
    parse_json_position,
    parse_move,
    parse_position,
)
from board.rules.judge import CandidateFacts, Intent
from board.rules.pieces import QUEEN, ROOK, WHITE
from tests.helpers.chessmoveq_cases import (
    IN_CHECK,
    OPENING,
    SEED_CASES,
    SMALLEST_MATE,
    Piece,
    pieces,
    square,
)


@pytest.mark.parametrize(("position", "move", "expected", "needles"), SEED_CASES)
def test_the_seed_cases_answer_and_explain(
    position: list[Piece], move: Piece, expected: bool, needles: list[str]
) -> None:
    assert is_valid_move(position, move) is expected
    lines = explain(position, move)
    deciding = [line for line in lines if line.startswith(needles[0].split(":")[0] + ":")]
    assert deciding, f"no line about the {needles[0].split(':')[0]} in {lines}"
    assert all(needle in deciding[0] for needle in needles), f"{needles} not all in {deciding[0]!r}"


def test_the_seed_statement_examples() -> None:
    assert is_valid_move(OPENING, ["W", "B", 4, 3]), "the bishop on e2 steps to d3"
    assert not is_valid_move(OPENING, ["B", "R", 4, 1])
    assert "rook on d8: blocked by the black knight on d7" in explain(OPENING, ["B", "R", 4, 1])


# -- the rules, one at a time ------------------------------------------------------------------

def valid(placement: str, colour: str, kind: str, target: str) -> bool:
    return is_valid_move(pieces(placement), [colour, kind, *square(target)])


def reasons(placement: str, colour: str, kind: str, target: str) -> list[str]:
    return explain(pieces(placement), [colour, kind, *square(target)])


def test_a_pawn_pushes_two_squares_only_from_its_start_rank() -> None:
    assert valid("4k3/8/8/8/8/8/4P3/4K3", "W", "P", "e4")
    assert not valid("4k3/8/8/8/8/4P3/8/4K3", "W", "P", "e5")
    assert valid("4k3/4p3/8/8/8/8/8/4K3", "B", "P", "e5")


def test_a_double_push_needs_both_squares_empty() -> None:
    assert not valid("4k3/8/8/8/8/4n3/4P3/4K3", "W", "P", "e4")
    assert "blocked by the black knight on e3" in reasons("4k3/8/8/8/8/4n3/4P3/4K3", "W", "P", "e4")[0]
    assert not valid("4k3/8/8/8/4n3/8/4P3/4K3", "W", "P", "e4")


def test_a_pawn_captures_diagonally_forward_onto_an_enemy_only() -> None:
    assert valid("4k3/8/8/8/8/3n4/4P3/4K3", "W", "P", "d3")
    assert not valid("4k3/8/8/8/8/8/4P3/4K3", "W", "P", "d3")
    assert not valid("4k3/8/8/8/8/3N4/4P3/4K3", "W", "P", "d3"), "not onto its own knight"
    assert not valid("4k3/8/8/8/8/4n3/4P3/4K3", "W", "P", "e3"), "a push cannot capture"
    assert "cannot push onto e3" in reasons("4k3/8/8/8/8/4n3/4P3/4K3", "W", "P", "e3")[0]


def test_a_pawn_reaching_the_last_rank_is_valid_by_push_or_capture() -> None:
    assert valid("3rk3/4P3/8/8/8/8/8/4K3", "W", "P", "d8")
    assert valid("6k1/P7/8/8/8/8/8/4K3", "W", "P", "a8")
    assert "promoting" in reasons("6k1/P7/8/8/8/8/8/4K3", "W", "P", "a8")[0]
    assert valid("4k3/8/8/8/8/8/p7/4K3", "B", "P", "a1")


def test_castling_is_never_valid() -> None:
    assert not valid("4k3/8/8/8/8/8/8/4K2R", "W", "K", "g1")
    assert not valid("r3k3/8/8/8/8/8/8/4K3", "B", "K", "c8")


def test_en_passant_is_never_valid() -> None:
    assert not valid("4k3/8/8/3Pp3/8/8/8/4K3", "W", "P", "e6")


def test_a_pinned_piece_cannot_leave_the_pin_line() -> None:
    position = "4k3/4r3/8/8/8/8/4N3/4K3"
    assert not valid(position, "W", "N", "c3")
    assert "pinned: moving would expose the king on e1 to the black rook on e7" in reasons(
        position, "W", "N", "c3"
    )[0]


def test_a_pinned_enemy_piece_still_gives_check() -> None:
    # The black bishop on g7 is pinned to its king by the rook on g1, yet it guards f6.
    assert not valid("6k1/6b1/8/4K3/8/8/8/6R1", "W", "K", "f6")
    assert valid("6k1/6b1/8/4K3/8/8/8/6R1", "W", "K", "e4")


def test_a_king_may_not_step_next_to_the_enemy_king() -> None:
    assert not valid("8/8/8/3k4/8/3K4/8/8", "W", "K", "d4")


def test_a_side_without_a_king_has_no_king_to_keep_safe() -> None:
    assert valid("4k3/8/8/8/8/8/8/R3r3", "W", "R", "a8")
    assert valid("4r3/8/8/8/8/8/4N3/8", "W", "N", "c3")


def test_the_enemy_king_can_be_captured_like_any_piece() -> None:
    assert valid("4k3/8/8/8/8/8/8/K3R3", "W", "R", "e8")
    assert "can take the black king on e8" in reasons("4k3/8/8/8/8/8/8/K3R3", "W", "R", "e8")[0]


def test_either_colour_may_move() -> None:
    # In the smallest mate the white king has no move at all, while black still moves freely.
    white_king_moves = [["W", "K", x, y] for x in range(1, 9) for y in range(1, 9)]
    assert not any(is_valid_move(SMALLEST_MATE, move) for move in white_king_moves)
    assert is_valid_move(SMALLEST_MATE, ["B", "Q", 6, 8])


def test_knights_jump_and_sliders_are_blocked() -> None:
    position = "4k3/8/8/8/8/8/PPPPPPPP/RN2K3"
    assert valid(position, "W", "N", "c3")
    assert not valid(position, "W", "R", "a3")


def test_several_capable_pieces_still_make_a_valid_move() -> None:
    result = answer(parse_position(pieces("4k3/8/8/8/8/8/4K3/R6R")), parse_move(["W", "R", 4, 1]))
    assert result.valid
    assert len(result.origins) == 2


def test_in_double_check_only_the_king_may_move() -> None:
    # The king on e1 is checked by the rook on e8 and the bishop on b4 at once: taking one checker
    # leaves the other, so only a king move can help.
    double_check = "4r1k1/8/8/8/Rb6/8/8/4K3"
    assert not valid(double_check, "W", "R", "b4")
    assert valid(double_check, "W", "K", "f2")


def test_a_piece_cannot_move_onto_its_own_square() -> None:
    assert not valid("4k3/8/8/8/8/8/8/R3K3", "W", "R", "a1")
    assert reasons("4k3/8/8/8/8/8/8/R3K3", "W", "R", "a1") == ["rook on a1: already stands on a1"]


def test_no_piece_of_that_kind_is_said_plainly() -> None:
    assert explain(SMALLEST_MATE, ["W", "N", 1, 1]) == ["no white knight on the board"]
    assert not is_valid_move(SMALLEST_MATE, ["W", "N", 1, 1])


def test_an_empty_position_answers_false() -> None:
    assert not is_valid_move([], ["W", "K", 1, 1])


def test_zero_based_coordinates_give_the_same_answers() -> None:
    shifted = [[colour, kind, x - 1, y - 1] for colour, kind, x, y in IN_CHECK]
    assert is_valid_move(shifted, ["B", "N", 6, 4], zero_based=True)
    assert not is_valid_move(shifted, ["B", "N", 4, 7], zero_based=True)
    assert explain(shifted, ["B", "N", 6, 4], zero_based=True) == explain(IN_CHECK, ["B", "N", 7, 5])


# -- the answer is a pure function of the facts (what the actor engine will call) --------------


def test_answer_from_hand_made_facts_needs_no_position() -> None:
    intent = Intent(WHITE, ROOK, 15)  # a rook to h2
    free = CandidateFacts(7, ROOK, (), "any")
    pinned = CandidateFacts(0, ROOK, None)
    result = answer_from_facts(intent, [pinned, free], 4, ())
    assert result == Answer(
        True, (7,), ("rook on a1: cannot reach h2: not on its file or rank", "rook on h1: can go to h2")
    )
    exposed = CandidateFacts(7, ROOK, (), "any", exposers=((60, 8 + QUEEN),))
    refused = answer_from_facts(intent, [exposed], 4, ())
    assert not refused.valid
    assert refused.reasons == (
        "rook on h1: pinned: moving would expose the king on e1 to the black queen on e8",
    )


def test_a_promotion_intent_stands_for_every_promotion() -> None:
    assert intent_for(parse_move(["W", "P", 1, 8])).promotion == QUEEN
    assert intent_for(parse_move(["B", "P", 1, 1])).promotion == QUEEN
    assert intent_for(parse_move(["W", "P", 1, 7])).promotion == 0
    assert intent_for(parse_move(["W", "Q", 1, 8])).promotion == 0


def test_a_missing_king_means_no_exposers_and_no_checkers() -> None:
    position = build_position(parse_position(pieces("4r3/8/8/8/8/8/4N3/8")), WHITE)
    candidates, king_square, checkers = gather_facts(position, intent_for(parse_move(["W", "N", 3, 3])))
    assert king_square == -1 and checkers == ()
    assert [facts.exposers for facts in candidates] == [()]


# -- bad input -----------------------------------------------------------------------------------

BAD_POSITIONS = [
    pytest.param({"W": 1}, "position must be a list of pieces", id="not-a-list"),
    pytest.param([["W", "K", 5]], "position piece 1 must be a list", id="three-items"),
    pytest.param(
        [["W", "K", 5, 1], "e4"],
        'position piece 2 must be a list [colour, kind, x, y], got "e4"',
        id="string",
    ),
    pytest.param([["W", "K", x % 8 + 1, x // 8 + 1] for x in range(33)], "33 pieces", id="too-many"),
    pytest.param(
        [["W", "K", 5, 1], ["W", "N", 2, 1], ["B", "Q", 5, 1]],
        'position pieces 1 ["W", "K", 5, 1] and 3 ["B", "Q", 5, 1] are both on e1',
        id="two-on-one-square",
    ),
    pytest.param([["W", "K", 9, 1]], "x = 9 is off the board (1..8)", id="file-off"),
    pytest.param([["W", "K", 1, 0]], "y = 0 is off the board (1..8)", id="rank-off"),
    pytest.param([["X", "K", 1, 1]], 'colour "X" is not "W" or "B"', id="colour"),
    pytest.param([["w", "K", 1, 1]], 'colour "w" is not "W" or "B"', id="lower-case-colour"),
    pytest.param([["W", "Z", 1, 1]], 'kind "Z" is not one of', id="kind"),
    pytest.param([["W", "K", 1.0, 1]], "x 1.0 is not a whole number", id="float"),
    pytest.param([["W", "K", True, 1]], "x true is not a whole number", id="bool"),
    pytest.param([["W", "K", 1, "2"]], 'y "2" is not a whole number', id="string-coordinate"),
    pytest.param(
        [["W", "K", 5, 1], ["W", "K", 4, 4]],
        "two white kings (piece 1 on e1 and piece 2 on d4); at most one king per colour",
        id="two-kings",
    ),
]


@pytest.mark.parametrize(("data", "needle"), BAD_POSITIONS)
def test_a_bad_position_is_refused_with_what_and_where(data: object, needle: str) -> None:
    with pytest.raises(ChessMoveQError) as caught:
        parse_position(data)
    assert needle in str(caught.value)


def test_zero_based_positions_run_from_0_to_7() -> None:
    assert parse_position([["W", "K", 0, 7]], zero_based=True)[0].square == 56
    with pytest.raises(ChessMoveQError, match=r"x = 8 is off the board \(0\.\.7\)"):
        parse_position([["W", "K", 8, 1]], zero_based=True)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (["W", "R", 8], "move must be a list [colour, kind, x, y]"),
        ("e4", 'move must be a list [colour, kind, x, y], got "e4"'),
        (["W", "R", 8, 9], "move"),
        (["W", "R", None, 2], "x null is not a whole number"),
    ],
)
def test_a_bad_move_is_refused(data: object, needle: str) -> None:
    with pytest.raises(ChessMoveQError) as caught:
        parse_move(data)
    assert needle in str(caught.value)


def test_json_text_errors_say_where() -> None:
    with pytest.raises(ChessMoveQError, match="position is not JSON: Expecting ',' delimiter at column 16"):
        parse_json_position('[["W","K",5,1] ["W","Q",4,1]]')
    with pytest.raises(ChessMoveQError, match="move is not JSON"):
        parse_json_move("[W, R, 8, 2]")
    with pytest.raises(ChessMoveQError, match="nested too deeply"):
        parse_json_position("[" * 100_000)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("[]", "expected an object"),
        ('{"position": []}', 'no "move"'),
        ('{"position": [], "move": ["W","K",1,1], "colour": "W"}', 'unknown key "colour"'),
        ('{"position": [], "position": [], "move": ["W","K",1,1]}', 'key "position" appears twice'),
        ('{"position": [["W","K",1,1]], "move": ["W","K",9,1]}', "move"),
    ],
)
def test_a_bad_case_line_is_refused(text: str, needle: str) -> None:
    with pytest.raises(ChessMoveQError) as caught:
        parse_json_case(text)
    assert needle in str(caught.value)


def test_chessmoveq_errors_are_input_errors() -> None:
    assert issubclass(ChessMoveQError, InputError)
    assert issubclass(ChessMoveQError, ValueError)
