"""Legal move generation: check and pin masks over bitboards, so no move is made to test it.

The generator finds the checkers and the pinned pieces once per position; every candidate is then
filtered by the squares that answer the check and by its pin line. Only en passant, which can
expose the king along a rank, is tested by looking at the position after the capture.
"""

from __future__ import annotations

from board.rules.bitboards import (
    BETWEEN,
    BISHOP_EMPTY,
    BIT,
    DIAG_ATTACKS,
    DIAG_MASK,
    FILE_ATTACKS,
    FILE_MASK,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    RANK_ATTACKS,
    RANK_MASK,
    ROOK_EMPTY,
    bishop_attacks,
    rook_attacks,
)
from board.rules.moves import CASTLE, DOUBLE_PUSH, EN_PASSANT
from board.rules.pieces import WHITE
from board.rules.position import Position

_ALL = (1 << 64) - 1

def attackers(position: Position, by: int, square: int, occupied: int) -> int:
    """The pieces of colour ``by`` that attack ``square`` when ``occupied`` is the occupancy."""
    bitboards = position.bitboards
    base = by * 8
    queens = bitboards[base + 5]
    return (
        (KNIGHT_ATTACKS[square] & bitboards[base + 2])
        | (PAWN_ATTACKS[by ^ 1][square] & bitboards[base + 1])
        | (KING_ATTACKS[square] & bitboards[base + 6])
        | (bishop_attacks(square, occupied) & (bitboards[base + 3] | queens))
        | (rook_attacks(square, occupied) & (bitboards[base + 4] | queens))
    )


def is_attacked(position: Position, by: int, square: int) -> bool:
    """Whether colour ``by`` attacks ``square`` in the position as it stands."""
    occupied = position.occupancy[0] | position.occupancy[1]
    return attackers(position, by, square, occupied) != 0


def checkers(position: Position) -> int:
    """The enemy pieces giving check to the side to move."""
    us = position.turn
    occupied = position.occupancy[0] | position.occupancy[1]
    return attackers(position, us ^ 1, position.kings[us], occupied)


def is_check(position: Position) -> bool:
    """Whether the side to move is in check."""
    return checkers(position) != 0


def pinned_pieces(position: Position, colour: int) -> dict[int, int]:
    """Pieces of ``colour`` pinned to their king: square -> the pin line they may move along."""
    bitboards = position.bitboards
    them = (colour ^ 1) * 8
    king = position.kings[colour]
    occupied = position.occupancy[0] | position.occupancy[1]
    queens = bitboards[them + 5]
    snipers = (ROOK_EMPTY[king] & (bitboards[them + 4] | queens)) | (
        BISHOP_EMPTY[king] & (bitboards[them + 3] | queens)
    )
    pins: dict[int, int] = {}
    ours = position.occupancy[colour]
    while snipers:
        sniper_bit = snipers & -snipers
        snipers ^= sniper_bit
        sniper = sniper_bit.bit_length() - 1
        between = BETWEEN[king][sniper] & occupied
        if between and not between & (between - 1) and between & ours:
            pins[between.bit_length() - 1] = LINE[king][sniper]
    return pins


def _en_passant_is_safe(position: Position, origin: int, target: int) -> bool:
    us = position.turn
    victim_square = target - 8 if us == WHITE else target + 8
    occupied = (position.occupancy[0] | position.occupancy[1]) ^ BIT[origin] ^ BIT[victim_square]
    occupied |= BIT[target]
    found = attackers(position, us ^ 1, position.kings[us], occupied)
    return not found & ~BIT[victim_square]


def legal_moves(position: Position) -> list[int]:
    """Every legal move of the side to move, encoded (see board.rules.moves)."""
    moves: list[int] = []
    _generate(position, moves)
    return moves


def count_legal_moves(position: Position) -> int:
    """How many legal moves the side to move has (counted, not listed: perft's leaves)."""
    return _generate(position, None)


def _generate(position: Position, moves: list[int] | None) -> int:
    """The legal moves of the side to move, appended to ``moves``; with ``moves`` None, only counted
    (a piece's targets by their number of bits, not one by one). Returns how many there are."""
    bitboards = position.bitboards
    us = position.turn
    them = us ^ 1
    ours = position.occupancy[us]
    theirs = position.occupancy[them]
    occupied = ours | theirs
    king = position.kings[us]
    base, enemy = us * 8, them * 8
    enemy_queens = bitboards[enemy + 5]
    enemy_diagonal = bitboards[enemy + 3] | enemy_queens
    enemy_straight = bitboards[enemy + 4] | enemy_queens
    enemy_knights, enemy_pawns, enemy_king = (
        bitboards[enemy + 2],
        bitboards[enemy + 1],
        bitboards[enemy + 6],
    )
    pawn_attacks_them = PAWN_ATTACKS[us]
    count = 0

    # The king: every target not attacked once the king has left its square.
    without_king = occupied ^ BIT[king]
    targets = KING_ATTACKS[king] & ~ours
    while targets:
        bit = targets & -targets
        targets ^= bit
        target = bit.bit_length() - 1
        if (
            KNIGHT_ATTACKS[target] & enemy_knights
            or pawn_attacks_them[target] & enemy_pawns
            or KING_ATTACKS[target] & enemy_king
            or DIAG_ATTACKS[target][without_king & DIAG_MASK[target]] & enemy_diagonal
            or (
                RANK_ATTACKS[target][without_king & RANK_MASK[target]]
                | FILE_ATTACKS[target][without_king & FILE_MASK[target]]
            )
            & enemy_straight
        ):
            continue
        count += 1
        if moves is not None:
            moves.append(king | target << 6)

    check = (
        (KNIGHT_ATTACKS[king] & enemy_knights)
        | (pawn_attacks_them[king] & enemy_pawns)
        | (DIAG_ATTACKS[king][occupied & DIAG_MASK[king]] & enemy_diagonal)
        | (
            (RANK_ATTACKS[king][occupied & RANK_MASK[king]] | FILE_ATTACKS[king][occupied & FILE_MASK[king]])
            & enemy_straight
        )
    )
    if check:
        if check & (check - 1):
            return count  # double check: only the king may move
        checker = check.bit_length() - 1
        allowed = (check | BETWEEN[king][checker]) & ~ours
    else:
        allowed = ~ours & _ALL

    # Pins: the one piece of ours between the king and an enemy slider on an open line.
    pinned = 0
    pin_lines: dict[int, int] = {}
    snipers = (ROOK_EMPTY[king] & enemy_straight) | (BISHOP_EMPTY[king] & enemy_diagonal)
    while snipers:
        bit = snipers & -snipers
        snipers ^= bit
        sniper = bit.bit_length() - 1
        between = BETWEEN[king][sniper] & occupied
        if between and not between & (between - 1) and between & ours:
            pinned |= between
            pin_lines[between.bit_length() - 1] = LINE[king][sniper]

    pieces = bitboards[base + 2] & ~pinned  # a pinned knight can never move
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        origin = bit.bit_length() - 1
        targets = KNIGHT_ATTACKS[origin] & allowed
        count += _add(moves, origin, targets)

    queens = bitboards[base + 5]
    for sliders, diagonal in (
        (bitboards[base + 3] | queens, True),
        (bitboards[base + 4] | queens, False),
    ):
        while sliders:
            bit = sliders & -sliders
            sliders ^= bit
            origin = bit.bit_length() - 1
            if diagonal:
                targets = DIAG_ATTACKS[origin][occupied & DIAG_MASK[origin]] & allowed
            else:
                targets = (
                    RANK_ATTACKS[origin][occupied & RANK_MASK[origin]]
                    | FILE_ATTACKS[origin][occupied & FILE_MASK[origin]]
                ) & allowed
            if bit & pinned:
                targets &= pin_lines[origin]
            count += _add(moves, origin, targets)

    count += _pawn_moves(position, moves, allowed, pinned, pin_lines, occupied, theirs)

    if not check and position.castling:
        for castling in position.castling_table.by_colour[us]:
            if position.castling & castling.right and not occupied & castling.between_mask:
                # Judged with king and rook lifted and the rook set down: in Chess960 the rook can
                # shield the king's target before it moves, or shield it only once it has moved.
                after = occupied & ~castling.lifted_mask | BIT[castling.rook_to]
                if not any(attackers(position, them, square, after) for square in castling.king_crossed):
                    count += 1
                    if moves is not None:
                        moves.append(castling.king_from | castling.king_to << 6 | CASTLE << 15)
    return count


def _add(moves: list[int] | None, origin: int, targets: int) -> int:
    """The plain moves from ``origin`` to each of ``targets``, appended to ``moves`` (or only
    counted, when it is None); returns how many."""
    if moves is None:
        return targets.bit_count()
    count = 0
    while targets:
        target_bit = targets & -targets
        targets ^= target_bit
        moves.append(origin | (target_bit.bit_length() - 1) << 6)
        count += 1
    return count


def _pawn_moves(
    position: Position,
    moves: list[int] | None,
    allowed: int,
    pinned: int,
    pin_lines: dict[int, int],
    occupied: int,
    theirs: int,
) -> int:
    us = position.turn
    pawns = position.bitboards[us * 8 + 1]
    step, home_low, last_low = (8, 8, 56) if us == WHITE else (-8, 48, 0)
    last_rank = 0xFF << last_low
    captures_of = PAWN_ATTACKS[us]
    en_passant = position.en_passant
    count = 0
    while pawns:
        bit = pawns & -pawns
        pawns ^= bit
        origin = bit.bit_length() - 1
        line = pin_lines[origin] if bit & pinned else -1
        targets = captures_of[origin] & theirs
        one = origin + step
        if not occupied & BIT[one]:
            targets |= BIT[one]
            if home_low <= origin < home_low + 8 and not occupied & BIT[one + step]:
                two = one + step
                if BIT[two] & allowed & line:
                    count += 1
                    if moves is not None:
                        moves.append(origin | two << 6 | DOUBLE_PUSH << 15)
        targets &= allowed & line
        if moves is None:
            promoting = targets & last_rank
            count += 4 * promoting.bit_count() + (targets ^ promoting).bit_count()
        else:
            while targets:
                target_bit = targets & -targets
                targets ^= target_bit
                target = target_bit.bit_length() - 1
                if last_low <= target < last_low + 8:
                    for kind in (5, 4, 3, 2):
                        moves.append(origin | target << 6 | kind << 12)
                        count += 1
                else:
                    moves.append(origin | target << 6)
                    count += 1
        if (
            en_passant >= 0
            and captures_of[origin] & BIT[en_passant]
            and _en_passant_is_safe(position, origin, en_passant)
        ):
            count += 1
            if moves is not None:
                moves.append(origin | en_passant << 6 | EN_PASSANT << 15)
    return count


def legal_en_passant(position: Position) -> int:
    """The en passant square if a legal en passant capture exists there, else -1."""
    target = position.en_passant
    if target < 0:
        return -1
    us = position.turn
    pawns = position.bitboards[us * 8 + 1] & PAWN_ATTACKS[us ^ 1][target]
    while pawns:
        bit = pawns & -pawns
        pawns ^= bit
        move = (bit.bit_length() - 1) | target << 6 | EN_PASSANT << 15
        if move in legal_moves(position):
            return target
    return -1


def repetition_key(position: Position) -> tuple[object, ...]:
    """What makes two positions the same for repetition: placement, turn, rights, en passant.

    The en passant square counts only when a capture there is legal (FIDE 9.2.3).
    """
    return (bytes(position.squares), position.turn, position.castling, legal_en_passant(position))


def legal_moves_to(position: Position, kind: int, target: int) -> list[int]:
    """The legal moves of the side to move's pieces of ``kind`` onto ``target`` (no castling).

    Finds the pieces that could reach ``target`` by looking back from it, then tests each for
    king safety on the occupancy after the move: far cheaper than generating every move.
    """
    bitboards = position.bitboards
    us = position.turn
    them = us ^ 1
    ours = position.occupancy[us]
    if ours & BIT[target]:
        return []
    occupied = ours | position.occupancy[them]
    pieces = bitboards[us * 8 + kind]
    victim = position.squares[target]
    en_passant = False
    if kind == 2:
        origins = KNIGHT_ATTACKS[target] & pieces
    elif kind == 3:
        origins = bishop_attacks(target, occupied) & pieces
    elif kind == 4:
        origins = rook_attacks(target, occupied) & pieces
    elif kind == 5:
        origins = (bishop_attacks(target, occupied) | rook_attacks(target, occupied)) & pieces
    elif kind == 6:
        origins = KING_ATTACKS[target] & pieces
    else:
        step = 8 if us == WHITE else -8
        origins = 0
        if victim:
            origins = PAWN_ATTACKS[them][target] & pieces
        elif target == position.en_passant:
            origins = PAWN_ATTACKS[them][target] & pieces
            en_passant = True
        elif 0 <= target - step < 64:
            one = target - step
            if pieces & BIT[one]:
                origins = BIT[one]
            elif (
                not occupied & BIT[one]
                and 0 <= one - step < 64
                and pieces & BIT[one - step]
                and (target >> 3) == (3 if us == WHITE else 4)
            ):
                return _keep_safe(position, [one - step | target << 6 | DOUBLE_PUSH << 15])
    moves = []
    last_rank = target >> 3 in (0, 7)
    while origins:
        bit = origins & -origins
        origins ^= bit
        origin = bit.bit_length() - 1
        if en_passant:
            moves.append(origin | target << 6 | EN_PASSANT << 15)
        elif kind == 1 and last_rank:
            moves.extend(origin | target << 6 | promoted << 12 for promoted in (5, 4, 3, 2))
        else:
            moves.append(origin | target << 6)
    return _keep_safe(position, moves)


def _keep_safe(position: Position, moves: list[int]) -> list[int]:
    """The moves among ``moves`` that leave the mover's king unattacked."""
    us = position.turn
    occupied = position.occupancy[0] | position.occupancy[1]
    safe = []
    for move in moves:
        origin, target = move & 63, move >> 6 & 63
        removed = BIT[target]
        after = (occupied & ~BIT[origin]) | BIT[target]
        if move >> 15 == EN_PASSANT:
            victim = target - 8 if us == WHITE else target + 8
            after &= ~BIT[victim]
            removed |= BIT[victim]
        king = target if position.squares[origin] & 7 == 6 else position.kings[us]
        if not attackers(position, us ^ 1, king, after) & ~removed:
            safe.append(move)
    return safe
