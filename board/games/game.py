"""A game in progress for the direct engine: a position, its history and how the game stands.

Keeps what the rules need beyond the position itself: the positions seen (repetitions) and how
and when the game ended, if it has (board.rules.outcome says which outcomes end it).
"""

from __future__ import annotations

from board.errors import IllegalMoveError
from board.games.played import Played
from board.notation.algebraic import parse_move_text, resolve, san
from board.notation.algebraic import uci as uci_text
from board.notation.fen import STARTING_FEN, parse_fen, write_fen
from board.rules.judge import Intent
from board.rules.movegen import is_check, legal_moves, repetition_key
from board.rules.moves import from_square, to_square
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


class Game:
    """A game played with direct function calls over the rules core."""

    def __init__(self, fen: str = STARTING_FEN, chess960: bool | None = False) -> None:
        """Start from ``fen``; ``chess960`` as in :func:`board.notation.fen.parse_fen` (True: a Chess960
        game).

        Raises:
            FenError: the FEN cannot be read or the position is impossible.
        """
        self.position = parse_fen(fen, chess960=chess960)
        self.start_fen = write_fen(self.position)
        self.moves: list[int] = []
        # How often each position (by its repetition key) has stood: a plain dict, which the compiled
        # build reads without a Counter's Python-level __missing__ on every new position.
        self._seen: dict[tuple[object, ...], int] = {repetition_key(self.position): 1}
        self._over: Outcome | None = None
        self._ending: str | None = None
        self.outcome()  # a FEN may start a game that has already ended (mate, or the clock at 150)

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
        """The FEN of the current position."""
        return write_fen(self.position)

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
        return claims(self._over, position.halfmove, self._seen.get(repetition_key(position), 0))

    def play(self, text: str, want_san: bool = True) -> Played:
        """Play a move written in SAN or UCI.

        Raises:
            MoveSyntaxError: the text is not a move.
            IllegalMoveError: the move is not legal here (or the game is already over).
        """
        if self._ending is not None:
            raise IllegalMoveError(text, f"the game is over ({self._ending})")
        return self.play_intent(parse_move_text(self.position, text), want_san)

    def play_intent(self, intent: Intent, want_san: bool = True) -> Played:
        """Play an already parsed intent (see :meth:`play`)."""
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

    def push(self, move: int) -> None:
        """Make an already legal encoded move."""
        self.position.push(move)
        self.moves.append(move)
        key = repetition_key(self.position)
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        if ends_by_rule(self.position.halfmove, seen):
            self.outcome()  # ends the game now, even when nobody asks how it stands

    def outcome(self) -> Outcome | None:
        """How the game stands now (see board.rules.outcome.decide_outcome)."""
        position = self.position
        has_move = bool(legal_moves(position))
        seen = self._seen.get(repetition_key(position), 0)
        result = decide_outcome(has_move, is_check(position), pieces_of(position), position.halfmove, seen)
        if result in GAME_OVER and self._over is None:
            self._over, self._ending = result, ending(result, self.plies)
        return result
