"""The delivery turnstile: the real actors one delivery at a time, in fifo, seeded, scripted or hand order."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

from actors.game.game import ActorGame
from actors.game.session import CheckMoveSession
from actors.kernel.actor import TracedActor
from actors.kernel.errors import ActorFailure
from actors.kernel.messaging import Directory, ask, post, wait_one
from actors.kernel.policies import Fifo, Interactive, Random, ScheduleError, Script, parse_policy
from actors.kernel.schedule import Turnstile, record_of
from actors.protocol.referee import Accepted, Rejected
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from board.notation.pgn import read_games
from board.puzzles.chessmoveq import parse_move, parse_position

with open("tests/data/opera-game.pgn", encoding="utf-8") as _file:
    OPERA = [token.text for token in next(read_games(_file)).moves]


def timeless(events: list[TraceEvent]) -> list[tuple[Any, ...]]:
    """A trace without its clock readings: what must repeat exactly when a schedule is replayed."""
    return [
        (e["msg_id"], e["parent_id"], e["sender"], e["receiver"], e["kind"], repr(e["payload"]), e["reply"],
         e["ply"], e["hint"])
        for e in events
    ]


def play(moves: list[str], schedule: object) -> tuple[list[str], str, list[TraceEvent], list[str]]:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder, schedule=schedule) as game:  # type: ignore[arg-type]
        sans = []
        for move in moves:
            reply = game.propose(move)
            sans.append(reply.san if isinstance(reply, Accepted) else f"rejected {reply.reason}")
        steps = record_of(game.turnstile.steps) if game.turnstile is not None else []
        return sans, game.fen(), recorder.events(), steps


def test_every_schedule_plays_the_opera_game_as_the_free_actors_do() -> None:
    free = play(OPERA, None)
    assert free[0][-1] == "Rd8#"
    for schedule in ("fifo", "random(1)", Random(99)):
        sans, fen, _, steps = play(OPERA, schedule)
        assert (sans, fen) == (free[0], free[1]), f"under {schedule} the game went differently"
        assert len(steps) >= len(OPERA) * 5, "a scheduled game should record every delivery it ran"


def test_the_same_seed_gives_the_same_trace_message_for_message() -> None:
    first = play(OPERA[:12], "random(7)")
    second = play(OPERA[:12], "random(7)")
    assert timeless(first[2]) == timeless(second[2])
    assert first[3] == second[3]
    other = play(OPERA[:12], "random(8)")
    assert other[3] != first[3], "two seeds that order the same deliveries alike would make seeds pointless"


def test_a_recorded_schedule_replays_exactly() -> None:
    _, fen, events, steps = play(OPERA[:10], "random(3)")
    replayed_fen, replayed_events, replayed_steps = play(OPERA[:10], Script(steps))[1:]
    assert replayed_steps == steps
    assert replayed_fen == fen
    assert timeless(replayed_events) == timeless(events)


def test_a_schedule_naming_an_actor_that_cannot_run_is_a_clear_error() -> None:
    with ActorGame(schedule=Script(["board"])) as game, pytest.raises(ScheduleError) as raised:
        game.propose("e4")
    assert "schedule step 1 names board" in str(raised.value)
    assert "referee" in str(raised.value)


def test_pending_deliveries_are_listed_and_run_by_hand() -> None:
    policy = Interactive(patience=10)
    with ActorGame(schedule=policy) as game:
        assert game.turnstile is not None
        verdicts: list[object] = []
        worker = threading.Thread(target=lambda: verdicts.append(game.propose("Nf3")))
        worker.start()
        assert policy.wait_for_choice(5)
        first = policy.waiting
        assert first is not None and len(first) == 1
        only = first[0]
        described = (only.actor, only.sender, only.kind, only.waits)
        assert described == ("referee", "client", "ProposeText", "reply")
        with pytest.raises(InputError, match="no delivery 3: 1 can run now"):
            policy.decide(2)
        seen = {only.actor}
        steps = 0
        while worker.is_alive():
            if policy.wait_for_choice(0.2):
                ready = policy.waiting
                assert ready is not None
                seen.update(item.actor for item in ready)
                policy.decide(len(ready) - 1)  # the newest, not arrival order
                steps += 1
        worker.join(5)
        assert isinstance(verdicts[0], Accepted) and verdicts[0].san == "Nf3"
        assert steps == len(game.turnstile.steps) >= 5
        assert {"board", "white-knight-g1"} <= seen
        with pytest.raises(InputError, match="nothing is waiting"):
            policy.decide(0)
        with game.turnstile.using(Fifo()):  # looking need not be stepped by hand
            assert game.fen().startswith("rnbqkbnr/pppppppp/8/8/8/5N2/")


def test_a_scheduled_game_lists_mail_queued_behind_a_mailbox_head() -> None:
    turnstile = Turnstile(Fifo())
    with ActorGame(schedule=turnstile) as game:
        referee = game.supervisor.ref("referee")
        from actors.protocol.referee import FenQuery

        futures = [ask(referee, "referee", post(None, "client", "referee", FenQuery())) for _ in range(3)]
        queued = turnstile.queued()
        assert [item.actor for item in queued] == ["referee"] * 3
        assert [("queued" in item.waits) for item in queued] == [False, True, True]
        for name, future in futures:
            assert wait_one(name, future, 5).fen.startswith("rnbqkbnr")
        assert turnstile.queued() == []


@dataclass(frozen=True)
class Question:
    """Ask the named peer a Question in turn (two of these asking each other deadlock)."""

    peer: str


class Asker(TracedActor[Question]):
    def handle(self, message: Question) -> object:
        return self.ask_one(message.peer, Question(self.name))


def test_two_actors_asking_each_other_time_out_instead_of_hanging() -> None:
    turnstile = Turnstile(Fifo())
    directory = Directory()
    directory.turnstile = turnstile
    refs = [Asker.start(name, directory, None, 2.0) for name in ("ping", "pong")]
    for name, ref in zip(("ping", "pong"), refs, strict=True):
        directory.register(name, ref)
    started = time.monotonic()
    try:
        with pytest.raises(ActorFailure, match="did not answer"):
            wait_one(*ask(refs[0], "ping", post(None, "client", "ping", Question("pong"))), 2.0)
        assert time.monotonic() - started < 2.0, "schedule time, not the clock, should end a deadlock"
    finally:
        turnstile.close()
        for ref in refs:
            ref.stop()


def test_a_check_move_session_runs_under_a_schedule() -> None:
    position = parse_position([["W", "K", 5, 1], ["W", "R", 1, 1], ["B", "K", 5, 8], ["B", "B", 2, 4]])
    with CheckMoveSession(schedule="random(4)") as session:
        checked = session.answer(position, parse_move(["W", "R", 1, 8]))
        assert session.turnstile is not None and len(session.turnstile.steps) >= 3
    with CheckMoveSession() as free:
        assert free.answer(position, parse_move(["W", "R", 1, 8])) == checked
    assert not checked.valid, "the rook's move leaves the king in the bishop's check"


def test_schedule_names_parse_and_bad_ones_say_what_is_allowed() -> None:
    assert parse_policy("free") is None
    assert isinstance(parse_policy("random(12)"), Random)
    with pytest.raises(InputError, match="free, fifo, random"):
        parse_policy("lifo")
    with pytest.raises(InputError):
        ActorGame(schedule="random(x)")


def test_a_rejected_move_under_a_schedule_leaves_the_game_as_it_was() -> None:
    with ActorGame(schedule="random(2)") as game:
        assert isinstance(game.propose("e5"), Rejected)
        assert isinstance(game.propose("e4"), Accepted)
        assert game.plies == 1
