"""One game played by the actors and by the reference judge side by side, step by step.

Each step is a public call on an ActorGame (a proposal, a lesson, a lie, a crash) made on the
reference too; :meth:`TruthRun.check` then compares everything a user can see. Shared by the
stateful test (tests/actors/test_truth.py) and the long run (scripts/truth.py).

A run also counts what happened, step by step: each kind of step taken and each situation met (a
ghost told over a king, a castling with a hidden piece on its path, a repetition after start-up
lessons, ...), and :data:`COVERAGE` sets a floor for each, so that a generator that stops reaching
a situation fails its test instead of proving nothing about it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, settings

from actors.game.game import ActorGame
from actors.kernel.control import Ping
from actors.kernel.errors import ActorFailure
from actors.protocol.piece import Learn, Learned
from actors.protocol.referee import Accepted, Verdict
from board.errors import ChessActorsError, InputError
from board.rules.geometry import NAMED, Geometry, Path, user_geometry
from board.rules.pieces import KIND_BY_LETTER
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES, Coord
from tests.helpers.reference_judge import CASTLES, STANDARD_KING, Move, Reference

STARTS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",  # castling at once, both ways
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",  # promotions that take rooks, and castling
    "4k3/PPP5/8/8/8/8/5ppp/4K3 w - - 0 1",  # promotions at once
    "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",  # en passant now
    "7k/8/8/8/8/8/8/KN6 w - - 0 1",  # insufficient material until something learns
    "7k/5Q2/6K1/8/8/8/8/n7 b - - 0 1",  # one knight's moves from stalemate
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",  # mate in one
    "rn2k1nr/pppppppp/8/8/8/8/PPPPPPPP/R1B1KB1R w KQkq - 0 1",  # pieces on castling paths, to hide
)

PROMOTIONS_GIVEN: tuple[object, ...] = (5, 4, 3, 2, "q", "R", "bishop", "Knight", 6, 1, "k", "king", 7, "x")
"""How a promotion may be given to ``propose_squares``: by kind, letter or name, and some that name
no piece a pawn may become (a king, a pawn, nothing), which are refused."""

_PROMOTION_LETTERS = {"q": "q", "r": "r", "b": "b", "n": "n", "queen": "q", "rook": "r", "bishop": "b",
                      "knight": "n", 5: "q", 4: "r", 3: "b", 2: "n"}


_NAMES = {"q": "queen", "r": "rook", "b": "bishop", "n": "knight"}


def promotion_letter(given: object) -> str | None:
    """The promotion letter ``given`` stands for, None if it names no piece a pawn may become."""
    key = given.strip().lower() if isinstance(given, str) else given
    return _PROMOTION_LETTERS.get(key)  # type: ignore[call-overload, no-any-return]


def start_lessons(fen: str, picks: list[tuple[int, str]]) -> dict[int, str]:
    """Start-up lessons for a game from ``fen``: each (square, lesson) pick moved to the occupied
    square nearest it (a later pick of the same square wins)."""
    occupied = sorted(Reference(fen).men)
    return {
        min(occupied, key=lambda candidate: (abs(candidate - at), candidate)): lesson for at, lesson in picks
    }


class Switch:
    """A mutable cell some move functions read: flipping it changes their answers mid-game."""

    def __init__(self) -> None:
        self.on = True


def _ride(start: Coord, end: Coord, steps: tuple[tuple[int, int], ...]) -> tuple[Coord, ...] | None:
    """The squares between ``start`` and ``end`` along one of ``steps`` repeated; None if none fits."""
    for df, dr in steps:
        between = []
        file, rank = start[0] + df, start[1] + dr
        while 1 <= file <= 8 and 1 <= rank <= 8:
            if (file, rank) == end:
                return tuple(between)
            between.append((file, rank))
            file, rank = file + df, rank + dr
    return None


ROOK_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def lessons(switch: Switch) -> dict[str, Geometry]:
    """Every lesson the steps teach: the standard kinds and fairy pieces by name, user functions
    (one reads the switch), and geometries built directly (one reads the switch too)."""

    def rook_or_knight(start: Coord, end: Coord) -> object:
        # A rook while the switch is on, a knight while it is off.
        if switch.on:
            between = _ride(start, end, ROOK_STEPS)
            return None if between is None else (end, between)
        jump = (abs(end[0] - start[0]), abs(end[1] - start[1]))
        return (end, ()) if jump in ((1, 2), (2, 1)) else None

    def backward_step(start: Coord, end: Coord) -> object:
        # One square straight back or forward, onto an empty square only.
        if end[0] == start[0] and abs(end[1] - start[1]) == 1:
            return Path(end, (), "empty")
        return None

    def switched_bishop(colour: int, start: Coord, end: Coord) -> Path | None:
        # A bishop while the switch is on; a king's step (any target) while it is off.
        if switch.on:
            between = _ride(start, end, BISHOP_STEPS)
            return None if between is None else Path(end, between)
        if max(abs(end[0] - start[0]), abs(end[1] - start[1])) == 1:
            return Path(end, ())
        return None

    def far_leaper(colour: int, start: Coord, end: Coord) -> Path | None:
        # Two squares straight ahead for its colour, crossing the square between: a pawn-like step.
        forward = 1 if colour == 0 else -1
        if end == (start[0], start[1] + 2 * forward):
            return Path(end, ((start[0], start[1] + forward),), "empty")
        if end == (start[0] + 1, start[1] - 2 * forward):
            return Path(end, ((start[0] + 1, start[1] - forward),))
        return None

    return {
        **NAMED,
        "rook-or-knight": user_geometry(rook_or_knight, "rook-or-knight"),
        "backward-step": user_geometry(backward_step, "backward-step"),
        "switched-bishop": Geometry("switched-bishop", switched_bishop),
        "far-leaper": Geometry("far-leaper", far_leaper),
    }


class Disagreement(AssertionError):
    """The actors and the reference see the game differently (or a king was taken); ``kind`` says
    what differed: verdict, san, check, position, targets, outcome, king capture."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(text)
        self.kind = kind


@dataclass
class Tally:
    """What a run did: steps, sequences, and how often each kind of step and situation happened."""

    steps: int = 0
    sequences: int = 0
    counts: Counter[str] = field(default_factory=Counter)


COVERAGE: dict[str, float] = {
    # kinds of step
    "accepted": 0.1,
    "moves back": 0.01,
    "rejected": 0.05,
    "castlings": 0.002,
    "promotions": 0.002,
    "promotions by number": 0.001,
    "promotions by name or letter": 0.0005,
    "promotions refused": 0.001,
    "lessons": 0.02,
    "raw lessons": 0.02,
    "start-up lessons": 0.002,
    "switch flips": 0.01,
    "lies": 0.02,
    "truths": 0.01,
    "heals": 0.01,
    # situations met
    "ghost over a piece": 0.01,
    "ghost over a king": 0.002,
    "hidden king": 0.001,
    "castling with a hidden piece on its path": 0.001,
    "repetition after start-up lessons": 0.0002,
    "king that moves otherwise": 0.002,
}
"""The floor of each count, as a share of the steps taken (at least once in any run): a class of
step or situation a run reaches less often fails it ("sometimes" assertions)."""

NODE_COVERAGE: dict[str, float] = {"lessons on nodes": 0.02, "accepted": 0.1}
"""The floors of a run whose actors are on node processes."""


def coverage_table(tally: Tally, floors: Mapping[str, float] = COVERAGE) -> list[tuple[str, int, int]]:
    """Each counted class with how often it happened and its floor for this many steps."""
    return [
        (what, tally.counts[what], max(1, int(share * tally.steps)))
        for what, share in floors.items()
    ]


def coverage_misses(tally: Tally, floors: Mapping[str, float] = COVERAGE) -> list[str]:
    """The classes that happened less often than their floor (empty: every floor is met)."""
    table = coverage_table(tally, floors)
    return [f"{what}: {count} < {floor}" for what, count, floor in table if count < floor]


def format_coverage(tally: Tally, floors: Mapping[str, float] = COVERAGE) -> str:
    """The coverage table as text, one class a line."""
    lines = [f"{'what happened':<44}{'count':>8}{'floor':>8}"]
    for what, count, floor in coverage_table(tally, floors):
        lines.append(f"{what:<44}{count:>8}{floor:>8}{'' if count >= floor else '  MISSED'}")
    return "\n".join(lines)


class TruthRun:
    """A game on the actors and on the reference, driven by the same public calls.

    ``taught``: start-up lessons (square -> a lesson's name), given to the game as ``teach=``;
    ``nodes``: the game's actors run on these node processes (actors.clusters.nodes.Nodes).
    """

    def __init__(
        self,
        fen: str,
        tally: Tally | None = None,
        timeout: float = 5.0,
        taught: Mapping[int, str] | None = None,
        nodes: Any = None,
    ) -> None:
        self.switch = Switch()
        self.lessons = lessons(self.switch)
        self.tally = tally or Tally()
        self.taught = dict(taught or {})
        geometries = {at: self.lessons[lesson] for at, lesson in self.taught.items()}
        self.reference = Reference(fen, geometries)
        teach = {SQUARE_NAMES[at]: geometry for at, geometry in geometries.items()}
        self.on_nodes = nodes is not None
        self.game = ActorGame(
            fen, timeout=timeout, max_restarts=100_000, period=0.001, teach=teach, nodes=nodes
        )
        self.game.start()
        self.said: tuple[str | None, tuple[str, ...]] = (self.game.outcome, tuple(self.game.claimable))
        self.tally.sequences += 1
        self.fen = fen
        shown = {SQUARE_NAMES[at]: lesson for at, lesson in self.taught.items()}
        self.log: list[str] = [f"ActorGame({fen!r}, teach={shown})" if shown else f"ActorGame({fen!r})"]
        if shown:
            self._count("start-up lessons")
        self.calls: list[tuple[str, tuple[object, ...]]] = []
        """Each step as the concrete call that replays it (see :func:`replay`)."""
        self.played: list[Move] = []
        """The moves accepted, in order."""

    def close(self) -> None:
        self.game.close()

    def _count(self, what: str) -> None:
        self.tally.counts[what] += 1

    # -- proposals

    def propose_legal(self, index: int, form: int) -> None:
        """Propose a legal move chosen by ``index`` (a castling, promotion or en passant capture when
        ``index`` is a multiple of 3 and there is one) by squares, UCI or SAN (``form``)."""
        moves = self.reference.legal_moves() if not self.reference.over else []
        if not moves:
            return
        special = [move for move in moves if move.castle or move.promotion or move.en_passant]
        if special and index % 3 == 0:
            moves = special  # a third of the time the rarer moves, where there are some
        move = moves[index // 3 % len(moves)]
        text = [None, move.uci, self.reference.written(move)][form % 3]
        if text is None:
            # A promotion by squares names its piece by kind, by name or by letter, in turn.
            given = None
            if move.promotion:
                self._count("promotions proposed by squares")  # the count chooses the form
                forms = [KIND_BY_LETTER[move.promotion.upper()], _NAMES[move.promotion], None]
                given = forms[self.tally.counts["promotions proposed by squares"] % 3]
            self._by_squares(SQUARE_NAMES[move.origin], SQUARE_NAMES[move.target], move.promotion, given)
        else:
            self._by_text(text)

    def propose_back(self, form: int) -> None:
        """Propose the way back of the side to move's last move, where it is legal (so positions
        repeat), by squares, UCI or SAN (``form``); else a legal move as :meth:`propose_legal`."""
        reference = self.reference
        if reference.over:
            return
        back = None
        if len(self.played) >= 2:
            last = self.played[-2]
            back = next(
                (move for move in reference.legal_moves()
                 if (move.origin, move.target) == (last.target, last.origin) and not move.promotion),
                None,
            )
        if back is None:
            self.propose_legal(form, form)
            return
        self._count("moves back")
        text = [None, back.uci, reference.written(back)][form % 3]
        if text is None:
            self._by_squares(SQUARE_NAMES[back.origin], SQUARE_NAMES[back.target], "")
        else:
            self._by_text(text)

    def shuffle(self, form: int, plies: int = 4) -> None:
        """Move back and forth for ``plies`` plies (each a way back where there is one), checking
        after each, so that positions repeat."""
        for ply in range(plies):
            if ply:
                self.check()
            self.propose_back(form)

    def propose_squares(self, origin: int, target: int, promotion: str) -> None:
        """Propose origin -> target (any squares); a promotion letter only where one is needed."""
        wanted = {
            move.promotion
            for move in self.reference.legal_moves()
            if (move.origin, move.target) == (origin, target)
        }
        letter = promotion if wanted - {""} else ""
        self._by_squares(SQUARE_NAMES[origin], SQUARE_NAMES[target], letter)

    def promote(self, index: int, given: object) -> None:
        """Propose a legal promotion chosen by ``index`` (if there is one; else a legal move) by its
        squares, with the promotion ``given`` (see :data:`PROMOTIONS_GIVEN`): one that names no
        piece a pawn may become is refused with InputError, and nothing changes, whatever the move;
        a piece it may become is given in turn as drawn, by its kind and by its name."""
        moves = [] if self.reference.over else self.reference.legal_moves()
        if promotion_letter(given) is None:  # refused whatever the move: try it on any
            move = moves[index % len(moves)] if moves else Move(0, 8)
            self._by_squares(SQUARE_NAMES[move.origin], SQUARE_NAMES[move.target], "", given)
            return
        moves = [move for move in moves if move.promotion]
        if not moves:
            self.propose_legal(index, 0)
            return
        move = moves[index % len(moves)]
        self._count("promotions proposed by squares")  # the count chooses the form
        forms = [given, KIND_BY_LETTER[move.promotion.upper()], _NAMES[move.promotion]]
        given = forms[self.tally.counts["promotions proposed by squares"] % 3]
        self._by_squares(SQUARE_NAMES[move.origin], SQUARE_NAMES[move.target], move.promotion, given)

    def _by_squares(self, origin: str, target: str, promotion: str, given: object = None) -> None:
        """Propose ``origin`` -> ``target`` promoting to ``promotion`` (a letter), given to the game as
        ``given`` (default: the letter's kind)."""
        self.log.append(f"propose_squares({origin!r}, {target!r}, {promotion if given is None else given!r})")
        self.calls.append(("_by_squares", (origin, target, promotion, given)))
        self._count("proposals by squares")
        if given is not None:
            letter = promotion_letter(given)
            if letter is None:
                try:
                    self.game.propose_squares(origin, target, given)  # type: ignore[arg-type]
                except InputError:
                    self._count("promotions refused")
                    return
                raise Disagreement("verdict", f"a promotion given as {given!r} was not refused")
            promotion = letter
        expected = None
        if not self.reference.over:
            expected = next(
                (
                    move  # castling first: a king's two squares sideways castle when they may
                    for move in sorted(self.reference.legal_moves(), key=lambda move: not move.castle)
                    if (SQUARE_NAMES[move.origin], SQUARE_NAMES[move.target], move.promotion)
                    == (origin, target, promotion)
                    or (move.castle and not promotion and Reference.castle_uci(move) == origin + target)
                ),
                None,
            )
        kind: object = KIND_BY_LETTER[promotion.upper()] if promotion else None
        if given is not None:
            kind = given
        reply = self.game.propose_squares(origin, target, kind)  # type: ignore[arg-type]
        self._judged(reply, expected)
        if isinstance(reply, Accepted) and expected is not None and expected.promotion and given is not None:
            self._count("promotions by number" if isinstance(given, int) else "promotions by name or letter")

    def propose_text(self, text: str) -> None:
        """Propose a text (SAN or UCI, legal or not)."""
        self._by_text(text)

    def _by_text(self, text: str) -> None:
        self.log.append(f"propose({text!r})")
        self.calls.append(("_by_text", (text,)))
        self._count("proposals by text")
        expected = None if self.reference.over else self.reference.read(text)
        self._judged(self.game.propose(text), expected)

    def _judged(self, reply: Verdict, expected: Move | None) -> None:
        reference = self.reference
        if isinstance(reply, Accepted):
            taken = reference.men.get(SQUARE_INDEX[reply.uci[2:4]])
            if taken is not None and taken.letter == "k":
                raise Disagreement(
                    "king capture", f"the actors accepted {reply.uci} ({reply.san}), which takes a king"
                )
        if expected is None:
            if isinstance(reply, Accepted):
                raise Disagreement(
                    "verdict", f"the actors accepted {reply.uci} ({reply.san}); the reference refuses"
                )
            self._count("rejected")
            return
        if not isinstance(reply, Accepted):
            raise Disagreement(
                "verdict", f"the actors refused {expected.uci}: {reply.reason}; the reference accepts"
            )
        if reply.uci != expected.uci:
            raise Disagreement("verdict", f"the actors played {reply.uci}; the reference {expected.uci}")
        read_back = reference.read(reply.san)
        if read_back != expected:
            shown = read_back.uci if read_back else "no single move"
            raise Disagreement("san", f"the SAN {reply.san!r} of {reply.uci} reads back as {shown}")
        reference.play(expected)
        self.played.append(expected)
        self._count("accepted")
        if expected.promotion:
            self._count("promotions")
        if expected.castle:
            self._count("castlings")
        if reply.check != reference.in_check():
            raise Disagreement(
                "check", f"{reply.san}: the actors say check={reply.check}, the reference disagrees"
            )
        self.said = (reply.outcome, tuple(reply.claimable))

    # -- lessons

    def teach(self, at: int, lesson: str, raw: bool) -> None:
        """Teach the piece on ``at`` (the nearest square holding one) ``lesson``: through its handle
        (journalled and reassessed) or by a raw Learn ask (the piece alone is told)."""
        occupied = sorted(self.reference.men)
        at = min(occupied, key=lambda candidate: (abs(candidate - at), candidate))
        geometry = self.lessons[lesson]
        name = SQUARE_NAMES[at]
        self.log.append(f"{'raw Learn' if raw else 'learn'} {name} {lesson}")
        self.calls.append(("teach", (at, lesson, raw)))
        handle = self.game.piece(name)
        if self.on_nodes:
            self._count("lessons on nodes")
        if raw:
            learned: Learned = self.game.ask(handle.name, Learn(geometry))
            assert learned.refused is None, learned.refused
            self.reference.teach(at, geometry)
            self._count("raw lessons")
        else:
            handle.learn(geometry)
            self.reference.teach(at, geometry)
            self.reference.assess()
            self.said = (self.game.outcome, tuple(self.game.claimable))
            self._count("lessons")

    def flip(self) -> None:
        """Flip the switch the stateful move functions read."""
        self.switch.on = not self.switch.on
        self.log.append(f"switch {'on' if self.switch.on else 'off'}")
        self.calls.append(("flip", ()))
        self._count("switch flips")

    # -- lies

    def lie(self, ghosts: dict[int, str], hidden: list[int]) -> None:
        """Make the board report ``ghosts`` (anywhere: one told over a piece hides it) and hide
        ``hidden`` (occupied squares)."""
        men = self.reference.men
        hidden = sorted({at for at in hidden if at in men})
        named = {SQUARE_NAMES[at]: letter for at, letter in ghosts.items()}
        self.log.append(f"board_lies(ghosts={named}, hidden={[SQUARE_NAMES[at] for at in hidden]})")
        self.calls.append(("lie", (ghosts, hidden)))
        self.game.board_lies(ghosts=named, hidden=[SQUARE_NAMES[at] for at in hidden])
        self.reference.lie(ghosts, hidden)
        self._count("lies")

    def ghost_over(self, at: int, letter: str, king: bool) -> None:
        """Add a ghost ``letter`` over the piece nearest ``at`` (``king``: over a king, the white one
        for an even ``at``), keeping the lies told."""
        men = self.reference.men
        if king:
            colour = at % 2
            at = next(square for square, man in men.items() if man.letter == "k" and man.colour == colour)
        else:
            at = min(sorted(men), key=lambda candidate: (abs(candidate - at), candidate))
        self._add_lies({at: letter}, [])

    def hide_on_castling_path(self, which: int, ghost: str) -> None:
        """Hide a piece that stands where a castling either side may still make would cross or land
        (a ghost ``ghost`` there instead when ``ghost`` is a letter), keeping the lies told; nothing
        if no such piece stands there."""
        reference = self.reference
        squares = sorted(
            {
                SQUARE_INDEX[name]
                for letter in reference.castling
                for name in CASTLES[letter][4]
                if SQUARE_INDEX[name] in reference.men
            }
        )
        if not squares:
            return
        at = squares[which % len(squares)]
        self._count("pieces hidden on castling paths")
        if ghost:
            self._add_lies({at: ghost}, [])
        else:
            self._add_lies({}, [at])

    def _add_lies(self, ghosts: dict[int, str], hidden: list[int]) -> None:
        told = {at: man.fen_letter for at, man in self.reference.ghosts.items()}
        self.lie({**told, **ghosts}, [*self.reference.hidden, *hidden])

    def truth(self) -> None:
        self.log.append("board_lies()")
        self.calls.append(("truth", ()))
        self.game.board_lies()
        self.reference.lie({}, ())
        self._count("truths")

    # -- crashes

    def crash(self, who: int) -> None:
        """Crash the board, the referee or a piece (chosen by ``who``), then heal."""
        names = ["board", "referee"] + [entry.name for entry in self.game.supervisor.roster().entries]
        self.crash_named(names[who % len(names)])

    def crash_named(self, name: str) -> None:
        """Crash the actor ``name`` (if it is still in the game), wait until it is gone, then heal."""
        names = {"board", "referee"} | {entry.name for entry in self.game.supervisor.roster().entries}
        if name not in names:
            return
        self.log.append(f"crash {name}")
        self.calls.append(("crash_named", (name,)))
        self.game.crash(name)
        with suppress(ActorFailure):
            self.game.ask(name, Ping())  # answered only if the crash has not struck yet: it has
        self.game.supervisor.heal()
        if name == "board":
            self.reference.lie({}, ())  # a board rebuilt from the journal tells the truth
        self.reference.assess()
        self.said = (self.game.supervisor.outcome, tuple(self.game.supervisor.claimable))
        self._count("heals")

    # -- after every step

    def situations(self) -> None:
        """Count the situations the game is in now (see :data:`COVERAGE`)."""
        reference = self.reference
        men, ghosts, hidden = reference.men, reference.ghosts, reference.hidden
        for at in ghosts:
            if at in men:
                self._count("ghost over a king" if men[at].letter == "k" else "ghost over a piece")
        if any(at in men and men[at].letter == "k" for at in hidden):
            self._count("hidden king")
        if any(man.letter == "k" and man.geometry is not STANDARD_KING for man in men.values()):
            self._count("king that moves otherwise")
        for letter in reference.castling:
            path = [SQUARE_INDEX[name] for name in CASTLES[letter][4]]
            if any(at in men and (at in hidden or at in ghosts) for at in path):
                self._count("castling with a hidden piece on its path")
                break
        if self.taught and reference.history[reference.key()] >= 2:
            self._count("repetition after start-up lessons")

    def check(self) -> None:
        """Compare what the actors say with the reference: position, targets, outcome, kings."""
        reference, game = self.reference, self.game
        self.tally.steps += 1
        self.situations()
        fen = game.fen().split()
        if tuple(fen[:4]) != reference.fen_fields():
            raise Disagreement(
                "position",
                f"the actors' position is {' '.join(fen[:4])}; the reference's "
                f"{' '.join(reference.fen_fields())}",
            )
        if fen[0].count("K") != 1 or fen[0].count("k") != 1:
            raise Disagreement("king capture", f"a king is gone from {fen[0]}")
        moves = [] if reference.over else reference.legal_moves()
        squares = {at for at, man in reference.men.items() if man.colour == reference.turn}
        squares |= {at for at, man in reference.ghosts.items() if man.colour == reference.turn}
        for at in sorted(squares):
            expected = {SQUARE_NAMES[move.target] for move in moves if move.origin == at}
            found = set(game.legal_targets(SQUARE_NAMES[at]))
            if found != expected:
                raise Disagreement(
                    "targets",
                    f"legal targets of {SQUARE_NAMES[at]}: the actors {sorted(found)}, "
                    f"the reference {sorted(expected)}",
                )
        if self.said != (reference.outcome, reference.claimable):
            raise Disagreement(
                "outcome",
                f"the actors say the game stands {self.said}; the reference "
                f"{(reference.outcome, reference.claimable)}",
            )


def replay(
    fen: str, calls: list[tuple[str, tuple[object, ...]]], taught: Mapping[int, str] | None = None
) -> tuple[Disagreement | None, list[str]]:
    """Play ``calls`` (as recorded in :attr:`TruthRun.calls`) from ``fen`` (with the start-up
    lessons ``taught``), checking after each; the disagreement met (None if none) and the log of
    the calls made."""
    run = TruthRun(fen, taught=taught)
    try:
        run.check()
        for method, arguments in calls:
            getattr(run, method)(*arguments)
            run.check()
    except Disagreement as error:
        return error, run.log
    except ChessActorsError:
        return None, run.log  # the shortened sequence asked for something that is not there
    finally:
        run.close()
    return None, run.log


def shrink(
    fen: str, calls: list[tuple[str, tuple[object, ...]]], kind: str, taught: Mapping[int, str] | None = None
) -> tuple[Disagreement | None, list[str]]:
    """The shortest sequence found by leaving calls out one at a time (latest first) that still
    ends in a disagreement of ``kind``: the disagreement and its log."""
    found, log = replay(fen, calls, taught)
    changed = True
    while changed:
        changed = False
        for index in reversed(range(len(calls))):
            shorter = calls[:index] + calls[index + 1 :]
            error, shorter_log = replay(fen, shorter, taught)
            if error is not None and error.kind == kind:
                calls, found, log, changed = shorter, error, shorter_log, True
    return found, log


def machine_settings(examples: int, steps: int) -> settings:
    """Hypothesis settings for a state machine of actor calls: ``examples`` sequences of at most
    ``steps`` steps, the same every run (derandomized, no database), and no shrinking (shrinking a
    sequence of actor calls would take minutes)."""
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        phases=[Phase.explicit, Phase.generate],
    )
