"""A reference game for the stateful tests: the truth of a game whose pieces learn and whose board lies.

Written from the rules and from what README promises, apart from the engine (no board.rules.movegen,
board.rules.judge, board.rules.castling or board.notation.algebraic): it keeps the true placement with
each piece's move function, the side to move, castling rights, en passant, the clocks and the
repetition history, and judges a proposal by brute force. What the board reports (its lies) decides
who may move, what blocks and who attacks: a ghost is reported but has no actor, so it blocks and
occupies a target but never moves or attacks, and a piece it is told over is hidden by it; a hidden
piece is not reported at all. No move ever takes a king, and castling crosses and lands only on
squares that are empty as reported and as held.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from board.rules.geometry import Geometry, standard
from board.rules.pieces import KIND_BY_LETTER
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES, coord_of

PROMOTIONS = "qrbn"
STANDARD_BISHOP, STANDARD_KNIGHT = standard(KIND_BY_LETTER["B"]), standard(KIND_BY_LETTER["N"])
STANDARD_KING = standard(KIND_BY_LETTER["K"])

# FEN letter -> king from, king to, rook from, rook to, squares between king and rook, squares the
# king crosses and lands on; spelled out here from the rules rather than taken from the engine.
CASTLES = {
    "K": ("e1", "g1", "h1", "f1", ("f1", "g1"), ("f1", "g1")),
    "Q": ("e1", "c1", "a1", "d1", ("b1", "c1", "d1"), ("d1", "c1")),
    "k": ("e8", "g8", "h8", "f8", ("f8", "g8"), ("f8", "g8")),
    "q": ("e8", "c8", "a8", "d8", ("b8", "c8", "d8"), ("d8", "c8")),
}
CASTLING_ORDER = "KQkq"


def square(name: str) -> int:
    """The 0..63 index of a square name."""
    return SQUARE_INDEX[name]


def _index(coord: tuple[int, int]) -> int:
    return (coord[1] - 1) * 8 + coord[0] - 1


@dataclass(frozen=True)
class Man:
    """A piece: colour (0 white, 1 black), kind as a lower-case FEN letter, and its move function."""

    colour: int
    letter: str
    geometry: Geometry

    @property
    def fen_letter(self) -> str:
        return self.letter.upper() if self.colour == 0 else self.letter


@dataclass(frozen=True)
class Move:
    """A legal move: its squares, promotion letter, and what kind of move it is."""

    origin: int
    target: int
    promotion: str = ""
    en_passant: bool = False
    castle: str = ""  # the castling letter (K Q k q), or ''
    capture: bool = False  # as the board reports it (a ghost taken counts; a hidden piece does not)
    two_step_over: int = -1  # the square a pawn's two-step crosses (the next en passant square)

    @property
    def uci(self) -> str:
        return SQUARE_NAMES[self.origin] + SQUARE_NAMES[self.target] + self.promotion


class Reference:
    """The true game; :meth:`legal_moves` and :meth:`play` judge and make moves."""

    def __init__(self, fen: str, taught: dict[int, Geometry] | None = None) -> None:
        """The game from ``fen``, its pieces on the squares of ``taught`` moving by those geometries
        from the start (the lessons are part of the start position)."""
        placement, side, castling, passant, halfmove, fullmove = fen.split()
        self.men: dict[int, Man] = {}
        for row, text in enumerate(placement.split("/")):
            file = 0
            for char in text:
                if char.isdigit():
                    file += int(char)
                    continue
                self.men[(7 - row) * 8 + file] = Man(
                    0 if char.isupper() else 1, char.lower(), standard(KIND_BY_LETTER[char.upper()])
                )
                file += 1
        self.turn = 0 if side == "w" else 1
        self.castling = "" if castling == "-" else castling
        self.en_passant = -1 if passant == "-" else square(passant)
        self.halfmove, self.fullmove = int(halfmove), int(fullmove)
        for at, geometry in (taught or {}).items():
            self.teach(at, geometry)
        self.ghosts: dict[int, Man] = {}
        self.hidden: frozenset[int] = frozenset()
        self.history: Counter[tuple[object, ...]] = Counter()
        self.history[self.key()] += 1
        self.outcome: str | None = None
        self.claimable: tuple[str, ...] = ()
        self.ended: str | None = None
        """How a move ended the game (a game a move ended stays ended, whatever is taught after)."""
        self.assess()

    # -- what the board reports

    def reported(self, at: int) -> Man | None:
        """What the board says stands on ``at``: a ghost, nothing if hidden, else the truth."""
        if at in self.ghosts:
            return self.ghosts[at]
        if at in self.hidden:
            return None
        return self.men.get(at)

    def actors(self) -> dict[int, Man]:
        """The reported pieces that have an actor (the ones asked anything)."""
        return {at: man for at, man in self.men.items() if at not in self.hidden and at not in self.ghosts}

    def occupied(self) -> set[int]:
        return set(self.actors()) | set(self.ghosts)

    def king_square(self, colour: int) -> int:
        """The reported king of ``colour`` that has an actor (-1: the board reports none)."""
        return next(
            (at for at, man in self.actors().items() if man.colour == colour and man.letter == "k"), -1
        )

    @staticmethod
    def attacked(target: int, by: int, attackers: dict[int, Man], occupied: set[int]) -> bool:
        """Whether a piece of ``by`` in ``attackers`` reaches ``target`` along empty squares to take."""
        for origin, man in attackers.items():
            if man.colour != by or origin == target:
                continue
            path = man.geometry.moves(by, coord_of(origin), coord_of(target))
            if path is None or path.target_rule == "empty":
                continue
            if not any(_index(step) in occupied for step in path.traversed):
                return True
        return False

    def in_check(self) -> bool:
        king = self.king_square(self.turn)
        return king >= 0 and self.attacked(king, self.turn ^ 1, self.actors(), self.occupied())

    # -- judging

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move, on what the board reports."""
        us = self.turn
        actors, occupied = self.actors(), self.occupied()
        king = self.king_square(us)
        found: list[Move] = []
        for origin, man in actors.items():
            if man.colour != us:
                continue
            for target in range(64):
                if target == origin:
                    continue
                path = man.geometry.moves(us, coord_of(origin), coord_of(target))
                if path is None or any(_index(step) in occupied for step in path.traversed):
                    continue
                occupant = self.reported(target)
                if occupant is not None and occupant.colour == us:
                    continue
                if path.target_rule == "empty" and occupant is not None:
                    continue
                en_passant = False
                if path.target_rule == "enemy" and occupant is None:
                    if not (man.letter == "p" and target == self.en_passant):
                        continue
                    en_passant = True
                victim = (target - 8 if us == 0 else target + 8) if en_passant else -1
                if self._takes_a_king(target) or self._takes_a_king(victim):
                    continue
                after = {at: m for at, m in actors.items() if at not in (origin, target, victim)}
                after[target] = man
                after_occupied = (occupied - {origin, victim}) | {target}
                our_king = target if man.letter == "k" else king
                if our_king >= 0 and self.attacked(our_king, us ^ 1, after, after_occupied):
                    continue
                over = -1
                forward = 8 if us == 0 else -8
                two_step = man.letter == "p" and target - origin == 2 * forward
                if two_step and [_index(step) for step in path.traversed] == [origin + forward]:
                    over = origin + forward  # a pawn's two-step that crosses it opens en passant
                move = Move(origin, target, "", en_passant, "", occupant is not None or en_passant, over)
                if man.letter == "p" and target // 8 == (7 if us == 0 else 0):
                    found.extend(replace(move, promotion=letter) for letter in PROMOTIONS)
                else:
                    found.append(move)
        found.extend(self._castlings())
        return found

    def _takes_a_king(self, at: int) -> bool:
        """Whether a piece taken on ``at`` would be a king, truly or as the board reports."""
        if at < 0:
            return False
        truly, said = self.men.get(at), self.reported(at)
        return (truly is not None and truly.letter == "k") or (said is not None and said.letter == "k")

    def _castlings(self) -> list[Move]:
        us = self.turn
        actors, occupied = self.actors(), self.occupied()
        allowed = []
        for letter in self.castling:
            if letter.isupper() != (us == 0):
                continue
            king_from, king_to, rook_from, rook_to, between, crossed = CASTLES[letter]
            king, rook = actors.get(square(king_from)), actors.get(square(rook_from))
            if king is None or king.colour != us or king.letter != "k":
                continue
            if rook is None or rook.colour != us or rook.letter != "r":
                continue
            if any(square(name) in occupied or square(name) in self.men for name in between):
                continue  # a piece the board holds there, hidden or not, stops castling
            if self.attacked(square(king_from), us ^ 1, actors, occupied):
                continue
            after = {at: m for at, m in actors.items() if at not in (square(king_from), square(rook_from))}
            after[square(king_to)], after[square(rook_to)] = king, rook
            after_occupied = (occupied - {square(king_from), square(rook_from)}) | {
                square(king_to),
                square(rook_to),
            }
            if any(self.attacked(square(name), us ^ 1, after, after_occupied) for name in crossed):
                continue
            allowed.append(Move(square(king_from), square(king_to), castle=letter))
        return allowed

    def legal_targets(self, at: int) -> set[str]:
        """Where the piece on ``at`` may go now (nothing once the game is over)."""
        if self.over:
            return set()
        return {SQUARE_NAMES[move.target] for move in self.legal_moves() if move.origin == at}

    @property
    def over(self) -> bool:
        return self.outcome in ("checkmate", "stalemate", "seventyfive_moves", "fivefold_repetition")

    # -- making a move

    def play(self, move: Move) -> None:
        """Make a legal ``move`` on the true board, then reassess."""
        us = self.turn
        man = self.men.pop(move.origin)
        self.men.pop(move.target, None)
        if move.en_passant:
            self.men.pop(move.target - 8 if us == 0 else move.target + 8, None)
        if move.promotion:
            # A promoted piece moves as its new kind: whatever the pawn had learnt is gone.
            man = Man(us, move.promotion, standard(KIND_BY_LETTER[move.promotion.upper()]))
        self.men[move.target] = man
        if move.castle:
            _, _, rook_from, rook_to, _, _ = CASTLES[move.castle]
            self.men.pop(square(rook_to), None)
            self.men[square(rook_to)] = self.men.pop(square(rook_from))
        touched = {move.origin, move.target}
        self.castling = "".join(
            letter
            for letter in self.castling
            if not touched & {square(CASTLES[letter][0]), square(CASTLES[letter][2])}
        )
        self.en_passant = move.two_step_over
        self.halfmove = 0 if man.letter == "p" or move.capture or move.promotion else self.halfmove + 1
        if us == 1:
            self.fullmove += 1
        self.turn ^= 1
        self.history[self.key()] += 1
        self.assess()
        if self.over:
            self.ended = self.outcome

    def teach(self, at: int, geometry: Geometry) -> None:
        """The piece on ``at`` moves by ``geometry`` from now on."""
        self.men[at] = replace(self.men[at], geometry=geometry)

    def lie(self, ghosts: dict[int, str], hidden: Iterable[int]) -> None:
        """The board reports ``ghosts`` (square -> FEN letter) and hides ``hidden``."""
        self.ghosts = {
            at: Man(0 if letter.isupper() else 1, letter.lower(), standard(KIND_BY_LETTER[letter.upper()]))
            for at, letter in ghosts.items()
        }
        self.hidden = frozenset(hidden)

    # -- the position and how the game stands

    def legal_en_passant(self) -> int:
        """The en passant square, if the side to move can take there now; else -1."""
        if self.en_passant < 0:
            return -1
        return self.en_passant if any(move.en_passant for move in self.legal_moves()) else -1

    def key(self) -> tuple[object, ...]:
        """A position for repetition: placement, side, rights, legal en passant, and every piece's
        move function (a piece that moves otherwise makes another position)."""
        men = tuple(sorted((at, man.fen_letter, id(man.geometry)) for at, man in self.men.items()))
        return men, self.turn, self.castling, self.legal_en_passant()

    def fen_fields(self) -> tuple[str, str, str, str]:
        """Placement, side, castling, en passant as FEN writes them (en passant only when it was
        legal when last assessed)."""
        rows = []
        for rank in range(7, -1, -1):
            text, empty = "", 0
            for file in range(8):
                man = self.men.get(rank * 8 + file)
                if man is None:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + man.fen_letter
                empty = 0
            rows.append(text + (str(empty) if empty else ""))
        passant = self.assessed_en_passant
        castling = "".join(letter for letter in CASTLING_ORDER if letter in self.castling) or "-"
        return (
            "/".join(rows),
            "wb"[self.turn],
            castling,
            SQUARE_NAMES[passant] if passant >= 0 else "-",
        )

    def assess(self) -> None:
        """Decide the outcome, the claimable draws (most decisive first) and whether en passant is
        possible, afresh: after a move, a lesson taught through the client, a heal. (A raw Learn, a
        move function that changes its answers or a lie is news to nobody until then.)"""
        self.assessed_en_passant = self.legal_en_passant()
        repetitions = self.history[self.key()]
        if not self.legal_moves():
            self.outcome = "checkmate" if self.in_check() else "stalemate"
        elif self.halfmove >= 150:
            self.outcome = "seventyfive_moves"
        elif repetitions >= 5:
            self.outcome = "fivefold_repetition"
        elif self._insufficient_material():
            self.outcome = "insufficient_material"
        else:
            self.outcome = None
        claims = []
        if not self.over:
            if repetitions >= 3:
                claims.append("threefold_repetition")
            if self.halfmove >= 100:
                claims.append("fifty_moves")
        self.claimable = tuple(claims)
        if self.ended is not None:
            self.outcome, self.claimable = self.ended, ()

    def _insufficient_material(self) -> bool:
        """Neither side can mate: only kings and pieces moving by a standard bishop's or knight's
        function (no pawn, which could promote), and of those only lone knights against bare kings,
        or bishops all on one colour of square."""
        pieces = {**self.actors(), **self.ghosts}
        minors: list[tuple[int, int, str]] = []
        for at, man in pieces.items():
            if man.letter == "k":
                if man.geometry is not STANDARD_KING:
                    return False  # a king that moves otherwise may help to mate
                continue
            if man.letter == "p":
                return False
            if man.geometry is STANDARD_BISHOP:
                minors.append((at, man.colour, "b"))
            elif man.geometry is STANDARD_KNIGHT:
                minors.append((at, man.colour, "n"))
            else:
                return False
        for colour in (0, 1):
            own = [minor for minor in minors if minor[1] == colour]
            if not own:
                continue
            kinds = {kind for _, _, kind in own}
            if kinds == {"n"}:
                if len(own) != 1 or any(minor[1] != colour for minor in minors):
                    return False
            elif kinds == {"b"}:
                if any(kind == "n" for _, _, kind in minors):
                    return False
                if len({(at // 8 + at % 8) % 2 for at, _, _ in minors}) != 1:
                    return False
            else:
                return False
        return True

    # -- reading moves written by the actors or for them

    def read(self, text: str) -> Move | None:
        """The one legal move ``text`` (UCI or SAN, including the qualified ``Pe2d4``) names, or None
        when it names none or several."""
        moves = self.legal_moves()
        if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", text):
            # A king's two squares sideways are its castling when castling is legal (UCI's way).
            found = sorted((move for move in moves if move.uci == text), key=lambda move: not move.castle)
            if not found:  # a king taking its own castling rook is castling too (UCI's Chess960 form)
                found = [move for move in moves if move.castle and self.castle_uci(move) == text]
            return found[0] if found else None
        text = text.rstrip("+#")
        if text in ("O-O", "O-O-O"):
            side = ("K" if text == "O-O" else "Q") if self.turn == 0 else ("k" if text == "O-O" else "q")
            found = [move for move in moves if move.castle == side]
            return found[0] if found else None
        match = re.fullmatch(r"([PNBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=([NBRQ]))?", text)
        if match is None:
            return None
        letter, file, rank, took, target, promotion = match.groups()
        if letter is None and (rank or (took and not file) or (file and not took)):
            return None  # a pawn's capture names its file, and only that
        if letter == "P" and not (file and rank):
            return None  # the qualified pawn form names its square
        kind = (letter or "P").lower()
        found = []
        for move in moves:
            man = self.men[move.origin]
            origin = SQUARE_NAMES[move.origin]
            if move.castle or man.letter != kind or SQUARE_NAMES[move.target] != target:
                continue
            if (file and origin[0] != file) or (rank and origin[1] != rank):
                continue
            if letter is None and not took and origin[0] != target[0]:
                continue  # a pawn written without a capture moves along its file
            if move.promotion != (promotion or "").lower():
                continue
            found.append(move)
        return found[0] if len(found) == 1 else None

    @staticmethod
    def castle_uci(move: Move) -> str:
        """A castling written as its king taking its own rook (``e1h1``)."""
        king_from, _, rook_from, _, _, _ = CASTLES[move.castle]
        return king_from + rook_from

    def written(self, move: Move) -> str:
        """A way to write ``move`` that the SAN reader accepts: pieces fully qualified, pawns as in
        standard SAN where it can say the move (one step forward, or two from home, or a capture
        one step diagonally forward), else qualified (``Pe2d4``)."""
        man = self.men[move.origin]
        origin, target = SQUARE_NAMES[move.origin], SQUARE_NAMES[move.target]
        if move.castle:
            return "O-O" if move.castle in "Kk" else "O-O-O"
        promotion = f"={move.promotion.upper()}" if move.promotion else ""
        took = "x" if move.capture else ""
        if man.letter != "p":
            return f"{man.letter.upper()}{origin}{took}{target}"
        forward = 8 if man.colour == 0 else -8
        step = move.target - move.origin
        home = move.origin // 8 == (1 if man.colour == 0 else 6)
        last = move.target // 8 in (0, 7)
        if not (last and not move.promotion):
            if (
                move.capture
                and step in (forward - 1, forward + 1)
                and abs(ord(origin[0]) - ord(target[0])) == 1
            ):
                return f"{origin[0]}x{target}{promotion}"
            if not move.capture and (step == forward or (step == 2 * forward and home)):
                return f"{target}{promotion}"
        return f"P{origin}{took}{target}{promotion}"
