"""The trace recorder: ids, stamps and statistics under many threads, and the structlog sinks.

Messages here are stand-in dataclasses; the recorder knows nothing of chess.
"""

from __future__ import annotations

import io
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import pykka
import pytest

from actors.protocol.readable import readable
from actors.tracing.event import REQUIRED_FIELDS, TraceEvent
from actors.tracing.recorder import (
    SCHEMA_FIELDS,
    TRACE_LOGGER_NAME,
    Delivery,
    TraceRecorder,
    actor_role,
    median,
    p99,
    percentile,
    reply_text,
)
from actors.tracing.sinks import jsonl_sink, logging_sink


@dataclass(frozen=True)
class MoveQuery:
    sender: str
    from_square: str
    to_square: str


@dataclass(frozen=True)
class Yes:
    kind: str
    traversed: tuple[str, ...]


@dataclass(frozen=True)
class Moved:
    from_square: str
    to_square: str


def _event(msg_id: int, receiver: str, kind: str, handled: int, replied: int | None) -> TraceEvent:
    return {
        "msg_id": msg_id,
        "parent_id": None,
        "sender": "referee",
        "receiver": receiver,
        "kind": kind,
        "payload": {},
        "t_sent": handled - 10,
        "t_handled": handled,
        "t_replied": replied,
        "ply": 1,
        "reply": None if replied is None else "Yes",
    }


def test_message_ids_stay_unique_when_many_threads_record_at_once() -> None:
    recorder = TraceRecorder()
    threads_count, per_thread = 16, 500
    start = threading.Barrier(threads_count)

    def work(number: int) -> None:
        start.wait()
        for _ in range(per_thread):
            delivery = recorder.post(f"sender-{number}", "board", MoveQuery("x", "g1", "f3"), ply=1)
            delivery.begin()
            delivery.replied(Yes("knight", ()))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    ids = [event["msg_id"] for event in recorder.events()]
    total = threads_count * per_thread
    assert len(ids) == total, f"{total - len(ids)} events were lost"
    assert sorted(ids) == list(range(1, total + 1)), "message ids repeat or skip"
    assert recorder.counts_by_kind() == {"MoveQuery": total}


def test_next_id_counts_up_from_one() -> None:
    recorder = TraceRecorder()
    assert [recorder.next_id() for _ in range(3)] == [1, 2, 3]


def test_an_answered_ask_records_times_in_order_and_the_reply_kind() -> None:
    recorder = TraceRecorder()
    delivery = recorder.post("referee", "white-knight-g1", MoveQuery("referee", "g1", "f3"), ply=1)
    delivery.begin()
    delivery.replied(Yes("knight", ("f2",)))
    latencies = recorder.latencies_by_receiver_kind()  # before events() builds the dicts

    [event] = recorder.events()
    assert list(event) == list(SCHEMA_FIELDS)
    assert event["kind"] == "MoveQuery"
    assert event["sender"] == "referee"
    assert event["receiver"] == "white-knight-g1"
    assert event["payload"] == {"from_square": "g1", "to_square": "f3"}, "routing fields stay out"
    assert event["reply"] == "Yes"
    assert event["t_replied"] is not None
    assert event["t_sent"] <= event["t_handled"] <= event["t_replied"]
    assert event["parent_id"] is None
    assert event["ply"] == 1
    assert latencies == {"knight": [event["t_replied"] - event["t_handled"]]}


def test_a_send_while_handling_is_the_child_of_the_handled_message_and_serves_its_ply() -> None:
    recorder = TraceRecorder()
    apply = recorder.post("referee", "board", MoveQuery("referee", "g1", "f3"), ply=7)
    apply.begin()
    moved = recorder.post("board", "white-knight-g1", Moved("g1", "f3"), parent=apply)
    apply.replied(None)
    moved.begin()
    moved.done()

    by_kind = {event["kind"]: event for event in recorder.events()}
    assert by_kind["Moved"]["parent_id"] == apply.msg_id
    assert by_kind["Moved"]["ply"] == 7
    assert by_kind["Moved"]["t_replied"] is None, "a tell has no reply time"
    assert by_kind["Moved"]["reply"] is None
    assert by_kind["MoveQuery"]["reply"] == "None", "an ask answered None still has a reply"


def test_finishing_without_begin_still_gives_a_handling_time() -> None:
    recorder = TraceRecorder()
    recorder.post("board", "white-pawn-e2", Moved("e2", "e4")).done()
    [event] = recorder.events()
    assert event["t_handled"] >= event["t_sent"]


def test_payloads_are_json_values() -> None:
    @dataclass(frozen=True)
    class Nested:
        query: MoveQuery
        squares: frozenset[str]
        path: tuple[int, ...]
        note: object

    payload = readable(
        Nested(MoveQuery("r", "a1", "a8"), frozenset({"b2", "a1"}), (1, 2), Path("x"))
    )
    assert payload == {
        "query": {"from_square": "a1", "to_square": "a8"},
        "squares": ["a1", "b2"],
        "path": [1, 2],
        "note": "x",
    }
    assert json.loads(json.dumps(payload)) == payload
    assert readable({"note": ("g", 1)}) == {"note": ["g", 1]}
    assert readable("ping") == {"value": "ping"}


@pytest.mark.parametrize(
    ("answer", "text"),
    [(Yes("knight", ()), "Yes"), (TimeoutError(), "TimeoutError"), (None, "None"), (True, "True")],
)
def test_reply_text_names_the_kind_of_answer(answer: object, text: str) -> None:
    assert reply_text(answer) == text


def test_events_is_a_snapshot_and_clear_forgets_but_ids_keep_growing() -> None:
    recorder = TraceRecorder()
    recorder.post("client", "referee", Moved("a", "b")).done()
    snapshot = recorder.events()
    recorder.post("client", "referee", Moved("a", "b")).done()
    assert len(snapshot) == 1
    assert len(recorder) == 2
    recorder.clear()
    assert recorder.events() == []
    recorder.post("client", "referee", Moved("a", "b")).done()
    assert [event["msg_id"] for event in recorder.events()] == [3]


def test_counts_by_kind_counts_every_delivered_message() -> None:
    recorder = TraceRecorder()
    for kind, count in (("MoveQuery", 3), ("Apply", 1), ("Moved", 2)):
        for number in range(count):
            recorder.record(_event(len(recorder) + 1, "board", kind, 100 + number, None))
    assert recorder.counts_by_kind() == {"MoveQuery": 3, "Moved": 2, "Apply": 1}


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("white-knight-g1", "knight"),
        ("black-pawn-d7", "pawn"),
        ("referee", "referee"),
        ("board", "board"),
        ("client", "client"),
        ("referee-2", "referee"),
    ],
)
def test_actor_role_reads_the_piece_kind_from_a_stable_name(name: str, role: str) -> None:
    assert actor_role(name) == role


def test_latencies_are_grouped_by_the_receivers_role_and_skip_tells() -> None:
    recorder = TraceRecorder()
    recorder.record(_event(1, "white-knight-g1", "MoveQuery", 1_000, 1_300))
    recorder.record(_event(2, "black-knight-b8", "MoveQuery", 2_000, 2_100))
    recorder.record(_event(3, "board", "BlockersQuery", 3_000, 3_050))
    recorder.record(_event(4, "board", "Apply", 4_000, 4_250))
    recorder.record(_event(5, "white-knight-g1", "Moved", 5_000, None))

    latencies = recorder.latencies_by_receiver_kind()
    assert latencies == {"board": [50, 250], "knight": [100, 300]}
    assert median(latencies["board"]) == 150.0
    assert p99(latencies["knight"]) == 300


def test_percentiles_use_the_nearest_rank() -> None:
    samples = list(range(1, 101))
    assert p99(samples) == 99
    assert percentile(samples, 0.5) == 50
    assert percentile(samples, 1.0) == 100
    assert median([5]) == 5.0
    with pytest.raises(ValueError):
        p99([])
    with pytest.raises(ValueError):
        median([])


def test_write_jsonl_writes_one_schema_line_per_event(tmp_path: Path) -> None:
    recorder = TraceRecorder()
    recorder.post("client", "referee", MoveQuery("client", "e2", "e4"), ply=1).replied(Yes("p", ()))
    recorder.post("board", "white-pawn-e2", Moved("e2", "e4"), ply=1).done()

    path = tmp_path / "run.trace.jsonl"
    assert recorder.write_jsonl(path) == 2
    buffer = io.StringIO()
    recorder.write_jsonl(buffer)
    assert path.read_text(encoding="utf-8") == buffer.getvalue()
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert lines == recorder.events()


def test_a_jsonl_sink_streams_one_line_per_recorded_message_with_the_schema() -> None:
    recorder = TraceRecorder()
    stream = io.StringIO()
    recorder.attach(jsonl_sink(stream))
    parent = recorder.post("client", "referee", MoveQuery("client", "g1", "f3"), ply=1)
    parent.begin()
    child = recorder.post(
        "referee", "white-knight-g1", MoveQuery("referee", "g1", "f3"), parent=parent
    )
    child.begin()
    child.replied(Yes("knight", ()))
    assert len(stream.getvalue().splitlines()) == 1, "the line is written as the message is handled"
    parent.replied(Yes("knight", ()))

    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 2
    for line in lines:
        missing = [field for field in REQUIRED_FIELDS if field not in line]
        assert not missing, f"a trace line lacks {missing}: {line}"
        assert "event" not in line, "structlog's event name must not leak into the schema"
    assert lines[0]["kind"] == "MoveQuery"
    assert lines[0]["parent_id"] == parent.msg_id
    assert lines == recorder.events(), "the sink sees exactly what the recorder keeps"


def test_sink_lines_from_many_threads_never_interleave(tmp_path: Path) -> None:
    recorder = TraceRecorder(keep=False)
    path = tmp_path / "threads.jsonl"
    with path.open("w", encoding="utf-8") as file, recorder.attached(jsonl_sink(file)):

        def work() -> None:
            for _ in range(200):
                recorder.post("referee", "board", MoveQuery("referee", "a1", "h8")).done()

        threads = [threading.Thread(target=work) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    ids = [json.loads(line)["msg_id"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted(ids) == list(range(1, 1601))
    assert recorder.events() == [], "keep=False streams without holding events"


def test_with_no_sink_recording_writes_nothing_anywhere(capfd: pytest.CaptureFixture[str]) -> None:
    recorder = TraceRecorder()
    for _ in range(10):
        delivery = recorder.post("referee", "board", MoveQuery("referee", "a1", "a2"), ply=1)
        delivery.begin()
        delivery.replied(Yes("rook", ()))
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert len(recorder.events()) == 10


def test_a_detached_sink_hears_nothing_more() -> None:
    recorder = TraceRecorder()
    stream = io.StringIO()
    sink = jsonl_sink(stream)
    with recorder.attached(sink):
        recorder.post("client", "referee", Moved("a", "b")).done()
    recorder.post("client", "referee", Moved("a", "b")).done()
    recorder.detach(sink)  # detaching twice is harmless
    assert len(stream.getvalue().splitlines()) == 1


def test_the_logging_sink_logs_through_the_chess_actors_trace_logger(
    caplog: pytest.LogCaptureFixture,
) -> None:
    recorder = TraceRecorder()
    recorder.attach(logging_sink())
    with caplog.at_level(logging.INFO, logger=TRACE_LOGGER_NAME):
        recorder.post("referee", "board", MoveQuery("referee", "a1", "a2"), ply=3).done()
    [record] = caplog.records
    assert record.name == TRACE_LOGGER_NAME
    assert json.loads(record.getMessage())["ply"] == 3


class _Piece(pykka.ThreadingActor):
    """A stand-in piece actor that answers every query Yes and records its deliveries."""

    def on_receive(self, message: object) -> object:
        assert isinstance(message, tuple)
        _, delivery = message
        assert isinstance(delivery, Delivery)
        delivery.begin()
        answer = Yes("knight", ())
        delivery.replied(answer)
        return answer


class _Referee(pykka.ThreadingActor):
    """A stand-in referee that asks the piece while handling a proposal."""

    def __init__(self, recorder: TraceRecorder, piece: pykka.ActorRef[_Piece]) -> None:
        super().__init__()
        self.recorder = recorder
        self.piece = piece

    def on_receive(self, message: object) -> object:
        assert isinstance(message, tuple)
        _, delivery = message
        assert isinstance(delivery, Delivery)
        delivery.begin()
        query = MoveQuery("referee", "g1", "f3")
        child = self.recorder.post("referee", "white-knight-g1", query, parent=delivery)
        answer = self.piece.ask((query, child))
        delivery.replied(answer)
        return answer


def test_actors_on_their_own_threads_record_a_causal_chain() -> None:
    recorder = TraceRecorder()
    piece = _Piece.start()
    referee = _Referee.start(recorder, piece)
    try:
        for ply in (1, 2):
            proposal = MoveQuery("client", "g1", "f3")
            referee.ask((proposal, recorder.post("client", "referee", proposal, ply=ply)))
    finally:
        referee.stop()
        piece.stop()

    events = sorted(recorder.events(), key=lambda event: event["msg_id"])
    assert [(e["sender"], e["receiver"], e["parent_id"], e["ply"]) for e in events] == [
        ("client", "referee", None, 1),
        ("referee", "white-knight-g1", 1, 1),
        ("client", "referee", None, 2),
        ("referee", "white-knight-g1", 3, 2),
    ]
    for parent, child in zip(events[::2], events[1::2], strict=True):
        assert child["t_replied"] is not None and parent["t_replied"] is not None
        assert parent["t_handled"] <= child["t_sent"] <= child["t_handled"]
        assert child["t_replied"] <= parent["t_replied"]
