"""The direct engine's way of learning the facts about a move: by looking at the position.

(The actor engine learns the same facts by asking piece and board actors; board.rules.judge decides.)
"""

from __future__ import annotations

from board.rules.bitboards import BIT, squares_of
from board.rules.geometry import move_function
from board.rules.judge import CandidateFacts, CastlingFacts, Intent, Sighting
from board.rules.movegen import attackers
from board.rules.pieces import KING, PAWN
from board.rules.position import Position
from board.rules.squares import coord_of, index_of


def sightings(position: Position, bitboard: int) -> tuple[Sighting, ...]:
    """The pieces on the squares of a bitboard, lowest square first."""
    return tuple((square, position.squares[square]) for square in squares_of(bitboard))


def exposers_after(
    position: Position, colour: int, origin: int, target: int, en_passant: bool
) -> tuple[Sighting, ...]:
    """Enemy pieces that would attack ``colour``'s king once origin -> target is made."""
    occupied = position.occupancy[0] | position.occupancy[1]
    removed = BIT[target]
    occupied = (occupied & ~BIT[origin]) | BIT[target]
    if en_passant:
        victim = target - 8 if colour == 0 else target + 8
        occupied &= ~BIT[victim]
        removed |= BIT[victim]
    king = target if position.squares[origin] & 7 == KING else position.kings[colour]
    if king < 0:
        return ()  # a side without a king (ChessMoveQ allows it) has no king to expose
    return sightings(position, attackers(position, colour ^ 1, king, occupied) & ~removed)


def candidate_facts(position: Position, intent: Intent) -> list[CandidateFacts]:
    """The facts about every piece of the intended kind and colour."""
    colour, target = intent.colour, intent.target
    squares = position.squares
    result = []
    for origin in squares_of(position.bitboards[colour * 8 + intent.kind]):
        code = squares[origin]
        path = move_function(intent.kind, colour, coord_of(origin), coord_of(target))
        if path is None:
            result.append(CandidateFacts(origin, code, None))
            continue
        traversed = tuple(index_of(coord) for coord in path.traversed)
        blocker = next(((s, squares[s]) for s in traversed if squares[s]), None)
        target_code = squares[target]
        en_passant = (
            intent.kind == PAWN
            and path.target_rule == "enemy"
            and not target_code
            and target == position.en_passant
        )
        exposers: tuple[Sighting, ...] = ()
        if blocker is None and not (target_code and target_code >> 3 == colour):
            exposers = exposers_after(position, colour, origin, target, en_passant)
        result.append(
            CandidateFacts(
                origin, code, traversed, path.target_rule, blocker, target_code, en_passant, exposers
            )
        )
    return result


def castling_facts(position: Position, intent: Intent) -> CastlingFacts:
    """The facts about castling to the side the intent names."""
    colour = intent.colour
    assert intent.castle is not None, "castling facts need a castling intent"
    castling = position.castling_table.row(colour, intent.castle)
    if castling is None:  # a Chess960 layout without a rook on that side
        return CastlingFacts(position.kings[colour], False, None, (), ())
    king = castling.king_from
    squares = position.squares
    blocker = next(((s, squares[s]) for s in castling.between if squares[s]), None)
    occupied = position.occupancy[0] | position.occupancy[1]
    checkers = sightings(position, attackers(position, colour ^ 1, king, occupied))
    attacked = []
    # On the position the castling makes (king and rook lifted, then set down where they land), as
    # the actor engine's board reports it: the verdict is the move generator's, and the reason names
    # the same square in both engines (a ray to a crossed square through the king's landing square
    # reaches that square first).
    after = occupied & ~castling.lifted_mask | BIT[castling.rook_to] | BIT[castling.king_to]
    for square in castling.king_crossed:
        found = sightings(position, attackers(position, colour ^ 1, square, after))
        if found:
            attacked.append((square, found[0]))
    return CastlingFacts(king, bool(position.castling & castling.right), blocker, checkers, tuple(attacked))


def current_checkers(position: Position, colour: int) -> tuple[Sighting, ...]:
    """The enemy pieces giving check to ``colour``'s king now."""
    if position.kings[colour] < 0:
        return ()
    occupied = position.occupancy[0] | position.occupancy[1]
    return sightings(position, attackers(position, colour ^ 1, position.kings[colour], occupied))
