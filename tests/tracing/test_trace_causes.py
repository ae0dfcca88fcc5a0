"""A game's events numbered by their causes: the same messages for the same causes give the same trace,
however the threads that sent them took turns (what a game on several node processes needs)."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder

MARKS = ("Dropped", "Retried", "Duplicated")

Tree = list[tuple[str, Any]]
"""A message's children in the order its handling sent them: (kind, their own children)."""


def _trees() -> st.SearchStrategy[Tree]:
    kinds = st.sampled_from(["Survey", "MoveQuery", "Moved", *MARKS])
    leaf: st.SearchStrategy[tuple[str, Any]] = kinds.map(lambda kind: (kind, []))
    return st.lists(
        st.recursive(leaf, lambda inner: st.tuples(st.sampled_from(["Propose", "Apply", "Gather"]),
                                                     st.lists(inner, max_size=4)), max_leaves=25),
        min_size=1, max_size=4)


def _run(forest: Tree, seed: int) -> list[TraceEvent]:
    """The events of one run of ``forest``, listed in an order of their own: ids handed out from one
    counter as threads took turns at random. Each thread sends in order (the caller its requests, a
    handling the messages it sends); a fault's mark is posted whenever its thread gets a turn."""
    turns = random.Random(seed)
    events: list[TraceEvent] = []
    threads: list[deque[tuple[int | None, str, Tree, str]]] = [
        deque((None, kind, children, f"r{index}") for index, (kind, children) in enumerate(forest))]
    marks: list[tuple[int | None, str, Tree, str]] = []
    while any(threads) or marks:
        choices = [thread for thread in threads if thread]
        if marks and turns.random() < len(marks) / (len(marks) + len(choices)):
            parent_id, kind, children, path = marks.pop(turns.randrange(len(marks)))
        else:
            parent_id, kind, children, path = turns.choice(choices).popleft()
        msg_id = len(events) + 1
        events.append({"msg_id": msg_id, "parent_id": parent_id, "kind": kind, "sender": "a",
                       "receiver": "b", "payload": {} if kind in MARKS else {"path": path},
                       "t_sent": msg_id, "t_handled": msg_id, "t_replied": None})
        sent = [(msg_id, child, grandchildren, f"{path}.{index}")
                for index, (child, grandchildren) in enumerate(children)]
        threads.append(deque(message for message in sent if message[1] not in MARKS))
        marks.extend(message for message in sent if message[1] in MARKS)
    turns.shuffle(events)  # and finished in any order
    return events


def _released(events: list[TraceEvent], first_id: int) -> list[dict[str, object]]:
    """The events as a recorder records them once released, numbered by causes, without their moments
    (which are wall-clock: here, the order the run sent them in)."""
    recorder = TraceRecorder()
    recorder.hold()
    recorder.release(events, first_id=first_id)
    moments = ("t_sent", "t_handled", "t_replied")
    return [{field: value for field, value in event.items() if field not in moments}
            for event in recorder.events()]


@settings(max_examples=150, deadline=None)
@given(_trees(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_two_interleavings_of_the_same_messages_are_numbered_alike(forest: Tree, one: int,
                                                                   other: int) -> None:
    first, second = _released(_run(forest, one), 40), _released(_run(forest, other), 40)
    assert first == second
    ids = [event["msg_id"] for event in first]
    assert ids == list(range(40, 40 + len(first)))
    for event in first:
        assert event["parent_id"] is None or event["parent_id"] < event["msg_id"]  # type: ignore[operator]


def test_a_held_recorder_records_nothing_until_released_and_then_continues_the_numbering() -> None:
    recorder = TraceRecorder()
    recorder.post("client", "a", "hello").done()
    recorder.hold()
    later = recorder.post("client", "a", "hello again", ply=1)
    later.done()
    assert len(recorder.events()) == 1, "held back"
    recorder.release([{"msg_id": 90, "parent_id": later.msg_id, "kind": "Moved", "sender": "a",
                       "receiver": "b", "payload": {}, "t_sent": 0, "t_handled": 0, "t_replied": None}],
                     first_id=7)
    events = recorder.events()
    assert [(event["msg_id"], event["parent_id"], event["kind"]) for event in events] == [
        (1, None, "str"), (7, None, "str"), (8, 7, "Moved")]
    assert recorder.next_id() == 9
