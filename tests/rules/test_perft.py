"""Perft against the published counts of the standard test positions, and exact make/unmake.

The counts are those of the Chess Programming Wiki "Perft Results" page.
"""

from __future__ import annotations

import pytest

from board.notation.fen import STARTING_FEN, parse_fen
from board.rules.movegen import legal_moves
from board.rules.moves import Move
from board.rules.perft import divide, perft
from board.rules.position import Position
from tests.helpers.support import position_state

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

# Published node counts for depth 1, 2, 3, ... (as deep as this file runs them in a few seconds each).
PUBLISHED = {
    "initial": (STARTING_FEN, (20, 400, 8_902, 197_281, 4_865_609)),
    "kiwipete": (KIWIPETE, (48, 2_039, 97_862, 4_085_603)),
    "position 3": (POSITION_3, (14, 191, 2_812, 43_238, 674_624, 11_030_083)),
    "position 4": (POSITION_4, (6, 264, 9_467, 422_333)),
    "position 4 mirrored": (POSITION_4_MIRRORED, (6, 264, 9_467, 422_333)),
    "position 5": (POSITION_5, (44, 1_486, 62_379, 2_103_487)),
    "position 6": (POSITION_6, (46, 2_079, 89_890, 3_894_594)),
}

CASES = [
    pytest.param(fen, depth, expected, id=f"{name} depth {depth}")
    for name, (fen, counts) in PUBLISHED.items()
    for depth, expected in enumerate(counts, start=1)
]


@pytest.mark.parametrize(("fen", "depth", "expected"), CASES)
def test_perft_matches_the_published_count(fen: str, depth: int, expected: int) -> None:
    found = perft(parse_fen(fen), depth)
    assert found == expected, f"perft({depth}) of {fen}: {found} nodes, published {expected}"


def test_perft_of_depth_zero_counts_the_position_itself() -> None:
    assert perft(parse_fen(KIWIPETE), 0) == 1


@pytest.mark.parametrize("fen", [STARTING_FEN, KIWIPETE, POSITION_4])
def test_divide_splits_the_count_by_root_move(fen: str) -> None:
    position = parse_fen(fen)
    split = divide(position, 3)
    assert len(split) == len(legal_moves(position)), "divide must list every legal root move once"
    assert sum(count for _, count in split) == perft(position, 3)


def _consistent(position: Position) -> str | None:
    """Why the mailbox, bitboards, occupancy and king squares disagree, or None if they agree."""
    bitboards = [0] * 16
    for square, code in enumerate(position.squares):
        if code:
            bitboards[code] |= 1 << square
    if bitboards != position.bitboards:
        return "the bitboards do not match the squares"
    for colour in (0, 1):
        if sum(bitboards[colour * 8 : colour * 8 + 8]) != position.occupancy[colour]:
            return f"occupancy of colour {colour} is not the union of its bitboards"
        if position.squares[position.kings[colour]] != colour * 8 + 6:
            return f"kings[{colour}] = {position.kings[colour]} does not hold that king"
    return None


def _walk(position: Position, depth: int, line: list[str]) -> int:
    """Make and unmake every move to ``depth``, checking the position comes back exactly."""
    if depth == 0:
        return 1
    nodes = 0
    for move in legal_moves(position):
        uci = Move.of(move).uci()
        before = position_state(position)
        position.push(move)
        if depth > 1:  # the leaves are checked by their parent's unmake
            problem = _consistent(position)
            assert problem is None, f"after {' '.join([*line, uci])}: {problem}"
        nodes += _walk(position, depth - 1, [*line, uci])
        position.pop()
        after = position_state(position)
        assert after == before, f"unmaking {uci} after {' '.join(line)} changed the position"
    return nodes


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        pytest.param(KIWIPETE, 97_862, id="kiwipete"),
        pytest.param(POSITION_3, 2_812, id="position 3"),
        pytest.param(POSITION_4, 9_467, id="position 4"),
        pytest.param(POSITION_5, 62_379, id="position 5"),
    ],
)
def test_make_then_unmake_restores_the_exact_position(fen: str, expected: int) -> None:
    position = parse_fen(fen)
    assert _walk(position, 3, []) == expected
    assert position.ply_count == 0
