"""A game in progress for the direct engine: a position, its history and how the game stands.

Keeps what the rules need beyond the position itself: the positions seen (repetitions) and how
and when the game ended, if it has (board.rules.outcome says which outcomes end it).
"""

from __future__ import annotations

from collections.abc import Mapping

from board.errors import AmbiguousMoveError, IllegalMoveError
from board.games.played import Played
from board.notation.algebraic import format_san, parse_move_text, resolve, san
from board.notation.algebraic import uci as uci_text
from board.notation.fen import STARTING_FEN, parse_fen, write_fen
from board.rules.fen_text import format_fen
from board.rules.geometry import Geometry
from board.rules.judge import Intent
from board.rules.movegen import is_check, legal_moves, repetition_key
from board.rules.moves import CASTLE, EN_PASSANT, from_square, to_square
from board.rules.outcome import (
    GAME_OVER,
    Claim,
    Outcome,
    claims,
    decide_outcome,
    ending,
    ends_by_rule,
    pieces_of,
)
from board.rules.squares import SQUARE_NAMES
from board.rules.taught import TaughtBoard, read_lessons


class Game:
    """A game played with direct function calls over the rules core."""

    def __init__(
        self,
        fen: str = STARTING_FEN,
        chess960: bool | None = False,
        teach: Mapping[str, str | Geometry] | None = None,
    ) -> None:
        """Start from ``fen``; ``chess960`` as in :func:`board.notation.fen.parse_fen` (True: a Chess960
        game). ``teach``: pieces that start the game with another move function, by square, each a
        Betza string (``'b1': 'NC'``), a name (``'camel'``) or a geometry; a lesson moves with its piece.

        Raises:
            FenError: the FEN cannot be read or the position is impossible.
            InputError: a lesson names a square off the board or an empty one, or cannot be read (a
                Betza string's error names the letter and its position).
        """
        self.position = parse_fen(fen, chess960=chess960)
        self._taught: TaughtBoard | None = None
        if teach:
            self._taught = TaughtBoard(self.position, read_lessons(self.position, teach))
        self.start_fen = write_fen(self.position)
        self.moves: list[int] = []
        # How often each position (by its repetition key) has stood: a plain dict, which the compiled
        # build reads without a Counter's Python-level __missing__ on every new position.
        self._seen: dict[tuple[object, ...], int] = {self._key(): 1}
        self._over: Outcome | None = None
        self._ending: str | None = None
        self.outcome()  # a FEN may start a game that has already ended (mate, or the clock at 150)

    @property
    def taught(self) -> dict[str, str]:
        """The lessons the pieces hold now, by the square they stand on: square -> label."""
        if self._taught is None:
            return {}
        return {SQUARE_NAMES[square]: label for square, label in self._taught.lesson_labels()}

    def legal_moves(self) -> list[str]:
        """Every legal move of the side to move in UCI, taught pieces moving by their lessons."""
        moves = self._taught.legal_moves() if self._taught is not None else legal_moves(self.position)
        return sorted(self.uci(move) for move in moves)

    @property
    def chess960(self) -> bool:
        """Whether this is a Chess960 game (castling written as the king taking its rook)."""
        return self.position.castling_table.chess960

    def uci(self, move: int) -> str:
        """The UCI text of an encoded move of this game."""
        return uci_text(move, self.position.castling_table)

    @property
    def plies(self) -> int:
        """Legal plies played so far."""
        return len(self.moves)

    def fen(self) -> str:
        """The FEN of the current position (the en passant square shown when a capture there is legal,
        taught pieces moving by their lessons)."""
        if self._taught is None:
            return write_fen(self.position)
        position = self.position
        return format_fen(position.squares, position.turn, position.castling, self._taught.legal_en_passant(),
                          position.halfmove, position.fullmove, position.castling_table)

    def __repr__(self) -> str:
        last = f", last={self.uci(self.moves[-1])!r}" if self.moves else ""
        return f"Game(plies={self.plies}{last}, fen={self.fen()!r})"

    def _repr_svg_(self) -> str:
        """Jupyter: the current position as an SVG board, the last move's squares tinted."""
        from board.svg import board_svg

        last = self.moves[-1] if self.moves else None
        marked = () if last is None else (from_square(last), to_square(last))
        return board_svg(self.position.squares, marked)

    def ended(self) -> Outcome | None:
        """The outcome that ended the game (one of board.rules.outcome.GAME_OVER), else None."""
        return self._over

    def claimable(self) -> tuple[Claim, ...]:
        """The draws a player could claim here (none once the game has ended)."""
        position = self.position
        return claims(self._over, position.halfmove, self._seen.get(self._key(), 0))

    def play(self, text: str, want_san: bool = True) -> Played:
        """Play a move written in SAN or UCI.

        Raises:
            MoveSyntaxError: the text is not a move.
            IllegalMoveError: the move is not legal here (or the game is already over).
        """
        if self._ending is not None:
            raise IllegalMoveError(text, f"the game is over ({self._ending})")
        if self._taught is not None:
            return self._play_taught(text, want_san)
        return self.play_intent(parse_move_text(self.position, text), want_san)

    def _play_taught(self, text: str, want_san: bool) -> Played:
        """Play a move in a game with taught pieces: UCI, or SAN naming the piece by its kind."""
        taught = self._taught
        assert taught is not None
        legal = taught.legal_moves()
        move = {self.uci(move): move for move in legal}.get(text.strip())
        if move is None:
            move = self._taught_move(parse_move_text(self.position, text), legal)
        return self._push_taught(move, legal, want_san)

    def _taught_move(self, intent: Intent, legal: list[int]) -> int:
        """The one move among ``legal`` that ``intent`` names.

        Raises:
            IllegalMoveError: none does (AmbiguousMoveError: several do).
        """
        found = [move for move in legal if self._names(intent, move)]
        if len(found) > 1:
            where = " and ".join(SQUARE_NAMES[move & 63] for move in found)
            raise AmbiguousMoveError(intent.text, f"ambiguous: the pieces on {where} can all make it")
        if not found:
            raise IllegalMoveError(intent.text, "not a legal move here (taught pieces move by their lessons)")
        return found[0]

    def _push_taught(self, move: int, legal: list[int], want_san: bool) -> Played:
        """Make a legal move of a game with taught pieces, with its SAN, check and outcome."""
        taught = self._taught
        assert taught is not None
        written = self._taught_san(move, legal) if want_san else ""
        self.push(move)
        return Played(move, written, taught.in_check(), self.outcome() if want_san else None)

    def _names(self, intent: Intent, move: int) -> bool:
        """Whether a legal move is the one a parsed move text asks for."""
        castle = move >> 15 == CASTLE
        if intent.castle is not None or castle:
            return castle and intent.castle is not None and intent.target == move >> 6 & 63
        origin = move & 63
        return (
            self.position.squares[origin] & 7 == intent.kind
            and move >> 6 & 63 == intent.target
            and move >> 12 & 7 == intent.promotion
            and intent.admits(origin)
        )

    def _taught_san(self, move: int, legal: list[int]) -> str:
        """The SAN of a legal move among ``legal`` in a game with taught pieces."""
        taught = self._taught
        assert taught is not None
        position = self.position
        origin, target = move & 63, move >> 6 & 63
        code = position.squares[origin]
        rivals = [
            m & 63 for m in legal if m >> 6 & 63 == target and position.squares[m & 63] == code and m != move
        ]
        capture = bool(position.squares[target]) or move >> 15 == EN_PASSANT
        taught.push(move)
        check = taught.in_check()
        mate = check and not taught.legal_moves()
        taught.pop()
        castle = move >> 15 == CASTLE
        return format_san(code, origin, target, capture, move >> 12 & 7, castle, rivals, check, mate)

    def play_intent(self, intent: Intent, want_san: bool = True) -> Played:
        """Play an already parsed intent (see :meth:`play`)."""
        if self._taught is not None:
            if self._ending is not None:
                raise IllegalMoveError(intent.text, f"the game is over ({self._ending})")
            legal = self._taught.legal_moves()
            return self._push_taught(self._taught_move(intent, legal), legal, want_san)
        move = self._legal(intent)
        written = san(self.position, move) if want_san else ""
        self.push(move)
        check = written.endswith(("+", "#")) if want_san else is_check(self.position)
        return Played(move, written, check, self.outcome() if want_san else None)

    def step(self, text: str) -> None:
        """Play a move written in SAN or UCI, as :meth:`play` does but telling nothing about it: no
        SAN, check or outcome is worked out, for callers (bulk replay) that only go on to the next.

        Raises:
            MoveSyntaxError: the text is not a move.
            IllegalMoveError: the move is not legal here (or the game is already over).
        """
        if self._ending is not None:
            raise IllegalMoveError(text, f"the game is over ({self._ending})")
        if self._taught is not None:
            self._play_taught(text, want_san=False)
            return
        self.push(self._legal(parse_move_text(self.position, text)))

    def _legal(self, intent: Intent) -> int:
        """The one legal move the intent names (board.notation.algebraic.resolve), telling a move
        refused because the game has ended apart from one the rules refuse.

        Raises:
            IllegalMoveError: the move is not legal here (or the game is already over).
        """
        if self._ending is not None:
            raise IllegalMoveError(intent.text, f"the game is over ({self._ending})")
        try:
            return resolve(self.position, intent)
        except IllegalMoveError:
            if not legal_moves(self.position):
                raise IllegalMoveError(intent.text, f"the game is over ({self._ended_now()})") from None
            raise

    def _ended_now(self) -> str | None:
        """The ending recorded by outcome(), read afresh: a caller that has just seen
        `self._ending is None` cannot read the value outcome() sets (the compiled build keeps
        that narrowing)."""
        self.outcome()
        return self._ending

    def _key(self) -> tuple[object, ...]:
        """What repetition compares: the position's key, and every lesson when pieces are taught."""
        if self._taught is not None:
            return self._taught.repetition_key()
        return repetition_key(self.position)

    def push(self, move: int) -> None:
        """Make an already legal encoded move."""
        if self._taught is not None:
            self._taught.push(move)
        else:
            self.position.push(move)
        self.moves.append(move)
        key = self._key()
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        if ends_by_rule(self.position.halfmove, seen):
            self.outcome()  # ends the game now, even when nobody asks how it stands

    def outcome(self) -> Outcome | None:
        """How the game stands now (see board.rules.outcome.decide_outcome)."""
        position = self.position
        seen = self._seen.get(self._key(), 0)
        taught = self._taught
        if taught is not None:
            has_move, check, pieces = bool(taught.legal_moves()), taught.in_check(), taught.material()
        else:
            has_move, check, pieces = bool(legal_moves(position)), is_check(position), pieces_of(position)
        result = decide_outcome(has_move, check, pieces, position.halfmove, seen)
        if result in GAME_OVER and self._over is None:
            self._over, self._ending = result, ending(result, self.plies)
        return result
