"""Replaying PGN games with either engine, game by game, in input order.

The direct engine calls the rules core; the actor engine sends every move through the piece,
board and referee actors. Both produce the same :class:`board.games.replay.GameVerdict`; :func:`watch_game`
also reports every move as it is judged (for the command line's move lines, boards and traces).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass
from importlib import resources
from typing import IO, TYPE_CHECKING, NamedTuple

from board.errors import AmbiguousMoveError, ChessActorsError, FenError, MoveSyntaxError
from board.games.game import Game
from board.games.replay import (
    FAILURE,
    ILLEGAL,
    GameVerdict,
    MoveError,
    bad_start,
    move_error,
    replay_direct,
    start_fen,
    start_game,
    verdict,
)
from board.notation.pgn import MoveToken, PgnGame, read_games

if TYPE_CHECKING:
    from collections import Counter

    from actors.game.game import ActorGame
    from actors.game.placement import GameNodes
    from actors.game.pool import SystemPool
    from actors.kernel.links import LinkModel
    from actors.protocol import Verdict
    from actors.tracing.recorder import TraceRecorder

Judge = Callable[[PgnGame], GameVerdict]
ENGINES = ("actors", "direct")
EMBEDDED_GAME = "opera-game.pgn"


def judge_for(engine: str) -> Judge:
    """The function that replays one game with ``engine`` ('actors' or 'direct')."""
    if engine == "direct":
        return replay_direct
    return replay_with_actors


def replay_with_actors(game: PgnGame, pool: SystemPool | None = None) -> GameVerdict:
    """Replay one PGN game through the piece, board and referee actors, on a system borrowed from
    ``pool`` (default: this process's pool, :func:`actors.game.pool.process_pool`).

    Args:
        game: a game read by :func:`board.notation.pgn.read_games`.
        pool: the pool to borrow an actor system from (None: this process's).

    Returns:
        The verdict, as :func:`board.games.replay.replay_direct` gives it for the same game.
    """
    from actors.game.pool import process_pool

    return watch_game(game, "actors", pool=pool or process_pool())


def embedded_game() -> IO[str]:
    """The famous game replayed when no PGN is given (Morphy's Opera game, Paris 1858)."""
    return resources.files("actors").joinpath("data", EMBEDDED_GAME).open("r", encoding="utf-8")


def replay_stream(lines: Iterable[str], engine: str = "actors") -> Iterator[GameVerdict]:
    """Replay every game of a PGN line stream, in order, one verdict each."""
    judge = judge_for(engine)
    for game in read_games(lines):
        yield judge(game)


# --- watching a game move by move -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveReport:
    """One move of a replayed game as the judge saw it.

    ``ply`` is 1-based; ``number`` and ``colour`` (0 white, 1 black) place it in the move list
    (``number`` 4 and ``colour`` 1 is ``4... Nf7``). An accepted move has ``san`` (with its
    ``+``/``#``), ``uci``, ``check`` and the ``outcome`` it left; a refused one has ``reason``
    and ``kind`` ('illegal', 'ambiguous', 'syntax', 'over' or 'failure' when an actor failed).
    ``fen`` is the position after an accepted move, filled only when positions were asked for.
    """

    ply: int
    number: int
    colour: int
    text: str
    san: str | None = None
    uci: str | None = None
    check: bool = False
    outcome: str | None = None
    reason: str | None = None
    kind: str | None = None
    fen: str | None = None

    @property
    def accepted(self) -> bool:
        """Whether the judge accepted the move."""
        return self.reason is None


MoveListener = Callable[[MoveReport], None]


class Pause(NamedTuple):
    """A point where a watched game waits with nothing in flight: once ply ``ply`` is judged,
    accepted and reported, and the actors have answered every proposal sent, ``wait(ply)`` is
    called, and no later move is proposed before it returns. Nothing changes for a game that
    stops or ends at ``ply`` or before it."""

    ply: int
    wait: Callable[[int], None]


def watch_game(
    game: PgnGame,
    engine: str = "actors",
    recorder: TraceRecorder | None = None,
    on_move: MoveListener | None = None,
    positions: bool = False,
    teach: Mapping[str, str] | None = None,
    pool: SystemPool | None = None,
    network: LinkModel | None = None,
    faults: Counter[str] | None = None,
    nodes: GameNodes | None = None,
    max_restarts: int = 10,
    pause: Pause | None = None,
    scheduled: bool = True,
) -> GameVerdict:
    """Replay one game like :func:`judge_for` (same verdict), calling ``on_move`` after each move.

    Args:
        game: the PGN game.
        engine: 'actors' or 'direct'.
        recorder: traces every message of the actor engine when given.
        on_move: called with a :class:`MoveReport` for every move judged, the refused one included.
        positions: fill each accepted report's ``fen`` (the actor engine reads it from a mirror
            that follows the accepted moves, so that no extra message changes the trace; with
            taught pieces, which the mirror cannot follow, it asks the actors).
        teach: pieces (by square) that start the game moving as another geometry (actor engine only).
        pool: the actor engine borrows a system from it (with the pool's recorder, which ``recorder``
            must then be or leave out) instead of starting one for this game alone.
        network: the links between the game's actors (actor engine only).
        faults: the game's network counts (dropped, duplicated, delayed, retried) are added to it.
        nodes: run the game's actors on these node processes (actor engine only; not with ``pool``).
        max_restarts: the supervisor's restart intensity limit (see :class:`ActorGame`).
        pause: where the game waits, with no proposal in flight (a node can be killed there, a
            trace looked at), before it goes on.
        scheduled: over failing links in one process, run the game's own actors under a turnstile
            in arrival order, on the schedule's clock, so that the seed decides everything (the
            default); False: free threads over the real-time network, as on nodes.

    Returns:
        The game's verdict.

    Raises:
        ValueError: an unknown engine, or a recorder with the direct engine.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if engine == "direct" and (recorder is not None or teach or network is not None or nodes is not None):
        raise ValueError("only the actor engine can be traced, taught or run over a network or on nodes")
    report = on_move or _ignore
    try:
        board = start_game(game)
    except FenError as error:
        return bad_start(game, error)
    if engine == "direct":
        return _watch_direct(game, board, report, positions, pause)
    return _watch_actors(game, board, recorder, report, positions, teach or {}, pool, network, faults, nodes,
                         max_restarts, pause, scheduled)


def _ignore(report: MoveReport) -> None:
    return None


def _placed(start: str, ply: int) -> tuple[int, int]:
    """(move number, colour) of the ``ply``-th ply of a game starting at the FEN ``start``."""
    fields = start.split()
    index = ply - 1 + (fields[1] == "b")
    return int(fields[5]) + index // 2, index % 2


def _watch_direct(game: PgnGame, board: Game, report: MoveListener, positions: bool,
                  pause: Pause | None = None) -> GameVerdict:
    for token in game.moves:
        if pause is not None and board.plies == pause.ply:
            pause.wait(pause.ply)
        ply = board.plies + 1
        number, colour = _placed(board.start_fen, ply)
        try:
            played = board.play(token.text)
        except ChessActorsError as error:
            failure = move_error(ply, token, error)
            report(MoveReport(ply, number, colour, token.text, reason=failure.reason, kind=_kind(error)))
            return verdict(game, board.plies, board.fen(), board.outcome(), failure, board.claimable())
        report(MoveReport(ply, number, colour, token.text, played.san, board.uci(played.move), played.check,
                          played.outcome, fen=board.fen() if positions else None))
    return verdict(game, board.plies, board.fen(), board.outcome(), None, board.claimable())


def _kind(error: ChessActorsError) -> str:
    if isinstance(error, MoveSyntaxError):
        return "syntax"
    if isinstance(error, AmbiguousMoveError):
        return "ambiguous"
    return "over" if "the game is over" in str(error) else "illegal"


def _watch_actors(
    game: PgnGame, mirror: Game, recorder: TraceRecorder | None, report: MoveListener, positions: bool,
    teach: Mapping[str, str], pool: SystemPool | None, network: LinkModel | None = None,
    faults: Counter[str] | None = None, nodes: GameNodes | None = None, max_restarts: int = 10,
    pause: Pause | None = None, scheduled: bool = True,
) -> GameVerdict:
    from actors.game.game import ActorGame

    # Over failing links in one process, the game runs its own actors under a turnstile in arrival
    # order: the seed then decides everything (every fault, timeout and heal, on the schedule's clock,
    # and the order of deliveries, so the trace's ids too). On nodes the network's timers run real time.
    scheduled = scheduled and network is not None and nodes is None
    actor_game = ActorGame(
        start_fen(game), recorder=recorder, teach=teach, pool=None if scheduled else pool,
        chess960=mirror.chess960, network=network, nodes=nodes, max_restarts=max_restarts,
        schedule="fifo" if scheduled else None,
    )
    links = actor_game.links if actor_game.links is not None else actor_game.network
    if faults is not None and links is not None:
        counts = links.counts
        try:
            return _watch_game_actors(game, mirror, actor_game, report, positions, teach, pause)
        finally:
            faults.update(counts)
    return _watch_game_actors(game, mirror, actor_game, report, positions, teach, pause)


def _watch_game_actors(
    game: PgnGame, mirror: Game, actor_game: ActorGame, report: MoveListener, positions: bool,
    teach: Mapping[str, str], pause: Pause | None = None,
) -> GameVerdict:
    from actors.game.moves import final_fen
    from actors.protocol import Rejected

    start = actor_game.supervisor.start_fen

    def fen() -> str:
        return final_fen(actor_game)

    def stopped(failure: MoveError | None) -> GameVerdict:
        return verdict(game, actor_game.plies, fen(), actor_game.outcome, failure, actor_game.claimable)

    texts = [token.text for token in game.moves]
    with actor_game, closing(_proposed(actor_game, texts, pause)) as replies:
        for ply, token in enumerate(game.moves, start=1):
            number, colour = _placed(start, ply)
            try:
                reply = next(replies)
            except ChessActorsError as error:
                failure = _failure(ply, token, str(error), FAILURE)
                report(MoveReport(ply, number, colour, token.text, reason=str(error), kind="failure"))
                return stopped(failure)
            if isinstance(reply, Rejected):
                replies.close()  # the proposals still in flight come back stale: wait for them
                report(MoveReport(ply, number, colour, token.text, reason=reply.reason, kind=reply.kind))
                failure = _failure(ply, token, reply.reason)
                return stopped(failure)
            shown = None
            if positions and teach:
                shown = actor_game.fen()
            elif positions:  # a mirror of the accepted moves, so that no extra message joins the trace
                mirror.play(reply.uci, want_san=False)
                shown = mirror.fen()
            report(MoveReport(ply, number, colour, token.text, reply.san, reply.uci, reply.check,
                              reply.outcome, fen=shown))
        return stopped(None)


def _proposed(actor_game: ActorGame, texts: list[str], pause: Pause | None) -> Generator[Verdict, None, None]:
    """The verdicts on ``texts``, proposed many at a time; with a pause, the moves up to its ply
    are one stream, wholly answered before the pause, and the rest another, after it."""
    from actors.protocol import Rejected

    if pause is None or not 0 <= pause.ply < len(texts):
        yield from actor_game.stream_proposals(texts)
        return
    if pause.ply:
        with closing(actor_game.stream_proposals(texts[: pause.ply])) as before:
            for reply in before:
                yield reply
                if isinstance(reply, Rejected):
                    return
    pause.wait(pause.ply)  # reached only once every move up to the pause was accepted
    yield from actor_game.stream_proposals(texts[pause.ply :])


def _failure(ply: int, token: MoveToken, reason: str, kind: str = ILLEGAL) -> MoveError:
    return MoveError(ply, token.text, reason, token.line, token.column, kind)
