"""Trace exporters: Mermaid diagrams that render, Perfetto traces that load, strict trace reading.

Most tests use tests/data/sample.trace.jsonl: the first two plies of a game (1. Nf3 d5).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from actors.tracing.event import TraceEvent
from actors.tracing.export import (
    PlyRangeError,
    TraceFormatError,
    messages_per_ply,
    parse_ply_range,
    read_jsonl,
    select_plies,
    to_jsonl,
    to_perfetto,
)
from actors.tracing.mermaid import describe_move, to_mermaid
from board.errors import InputError

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample.trace.jsonl"

# Mermaid's sequence-diagram statements this exporter may produce. Text may hold no raw ';'
# (it ends a statement), '#' only as an entity code such as '#59;', and no quotes or angles.
TEXT = r"(?:[^;#\"<>\n]|#\w+;)+"
PARTICIPANT = re.compile(
    rf"^    participant (?P<alias>[A-Za-z_][A-Za-z0-9_]*)(?: as (?P<name>{TEXT}))?$"
)
ARROW = re.compile(
    r"^\s+(?P<from>[A-Za-z_][A-Za-z0-9_]*)(?P<arrow>->>|-->>|-\))"
    rf"(?P<to>[A-Za-z_][A-Za-z0-9_]*): (?P<text>{TEXT})$"
)
NOTE = re.compile(
    rf"^\s+Note over (?P<over>[A-Za-z_][A-Za-z0-9_]*(?:,[A-Za-z_][A-Za-z0-9_]*)?): {TEXT}$"
)
RECT = re.compile(r"^    rect rgba\(\d+, \d+, \d+, [0-9.]+\)$")


@pytest.fixture
def sample() -> list[TraceEvent]:
    with SAMPLE.open(encoding="utf-8") as file:
        return read_jsonl(file, source=str(SAMPLE))


def event(
    msg_id: int, parent_id: int | None, sender: str, receiver: str, kind: str, **times: Any
) -> TraceEvent:
    return {
        "msg_id": msg_id,
        "parent_id": parent_id,
        "sender": sender,
        "receiver": receiver,
        "kind": kind,
        "payload": times.pop("payload", {}),
        "t_sent": times["sent"],
        "t_handled": times["handled"],
        "t_replied": times.get("replied"),
        "ply": times.get("ply", 1),
        "reply": times.get("reply", "Ok" if times.get("replied") is not None else None),
    }


def check_mermaid(diagram: str) -> dict[str, str]:
    """Assert ``diagram`` is a sequenceDiagram this grammar accepts; return alias -> name."""
    lines = diagram.splitlines()
    assert lines[0] == "sequenceDiagram", f"first line is {lines[0]!r}"
    declared: dict[str, str] = {}
    depth = 0
    for number, line in enumerate(lines[1:], start=2):
        if match := PARTICIPANT.match(line):
            assert depth == 0, f"line {number}: participant declared inside a block"
            declared[match["alias"]] = match["name"] or match["alias"]
        elif match := ARROW.match(line):
            for alias in (match["from"], match["to"]):
                assert alias in declared, f"line {number}: {alias} used before it is declared"
        elif match := NOTE.match(line):
            for alias in match["over"].split(","):
                assert alias in declared, f"line {number}: note over undeclared {alias}"
        elif RECT.match(line):
            depth += 1
        elif line == "    end":
            depth -= 1
            assert depth >= 0, f"line {number}: 'end' without a block"
        else:
            pytest.fail(f"line {number} is not a statement this diagram should contain: {line!r}")
    assert depth == 0, "a rect block is never closed"
    return declared


# --- reading --------------------------------------------------------------------------------


def test_the_sample_trace_reads_as_two_plies_of_six_messages(sample: list[TraceEvent]) -> None:
    assert messages_per_ply(sample) == {1: 6, 2: 6}
    assert [event["msg_id"] for event in sample] == list(range(1, 13))


def test_jsonl_round_trips(sample: list[TraceEvent]) -> None:
    lines = list(to_jsonl(sample))
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    assert read_jsonl(lines) == sample
    assert lines == SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)


def test_missing_optional_fields_default_to_empty() -> None:
    line = (
        '{"msg_id":1,"parent_id":null,"sender":"a","receiver":"b","kind":"K",'
        '"t_sent":1,"t_handled":2}'
    )
    [parsed] = read_jsonl([line, "   "])
    assert parsed["payload"] == {}
    assert parsed["t_replied"] is None and parsed["ply"] is None and parsed["reply"] is None


GOOD = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([json.dumps(GOOD), "{not json"], "trace, line 2: not JSON"),
        (["[1, 2]"], "trace, line 1: expected a JSON object, got list"),
        (
            [json.dumps({k: v for k, v in GOOD.items() if k != "receiver"})],
            "line 1: missing field 'receiver'",
        ),
        (
            [json.dumps({**GOOD, "t_sent": "soon"})],
            "line 1: field 't_sent' must be an integer, got 'soon'",
        ),
        ([json.dumps({**GOOD, "msg_id": True})], "line 1: field 'msg_id' must be an integer"),
        ([json.dumps({**GOOD, "parent_id": "1"})], "field 'parent_id' must be an integer or null"),
        ([json.dumps(GOOD), "", json.dumps(GOOD)], "line 3: msg_id 1 repeats line 1"),
        ([json.dumps({**GOOD, "parent_id": 1})], "parent_id 1 is not an earlier message"),
        ([b"\xff\xfe"], "line 1: not UTF-8 text"),
    ],
)
def test_malformed_trace_lines_name_the_line_and_field(
    lines: list[str | bytes], message: str
) -> None:
    with pytest.raises(TraceFormatError) as caught:
        read_jsonl(lines, source="trace")
    assert message in str(caught.value)
    assert isinstance(caught.value, InputError), "the CLI must exit 2 on it"


@pytest.mark.parametrize(("text", "bounds"), [("1-2", (1, 2)), ("3", (3, 3)), (" 2 - 5 ", (2, 5))])
def test_ply_ranges_parse(text: str, bounds: tuple[int, int]) -> None:
    assert parse_ply_range(text) == bounds


@pytest.mark.parametrize("text", ["5-2", "x", "0-3", "3-", "-3", "1-2-3", "", "1,2"])
def test_malformed_ply_ranges_are_input_errors(text: str) -> None:
    with pytest.raises(PlyRangeError, match="--plies"):
        parse_ply_range(text)


def test_select_plies_keeps_the_range_and_drops_unnumbered_events(sample: list[TraceEvent]) -> None:
    unnumbered = event(99, None, "supervisor", "board", "Restart", sent=1, handled=2, ply=None)
    chosen = select_plies([*sample, unnumbered], 2, 2)
    assert {event["ply"] for event in chosen} == {2}
    assert len(chosen) == 6
    assert select_plies(sample, 3, 9) == []


@pytest.mark.parametrize(
    ("payload", "text"),
    [
        ({"from_square": "g1", "to_square": "f3"}, "g1-f3"),
        ({"from": [5, 7], "to": [5, 8], "promotion": "q"}, "e7-e8=q"),
        ({"san": "Nf3", "from_square": "g1"}, "Nf3"),
        ({"colour": "white"}, None),
    ],
)
def test_describe_move_reads_common_payload_shapes(
    payload: dict[str, Any], text: str | None
) -> None:
    assert describe_move(payload) == text


# --- Mermaid --------------------------------------------------------------------------------


def test_mermaid_is_a_well_formed_sequence_diagram(sample: list[TraceEvent]) -> None:
    diagram = to_mermaid(sample)
    declared = check_mermaid(diagram)
    assert set(declared.values()) == {
        "client",
        "referee",
        "board",
        "white-knight-g1",
        "black-pawn-d7",
    }
    arrows = [match for line in diagram.splitlines() if (match := ARROW.match(line))]
    kinds = Counter(match["arrow"] for match in arrows)
    assert kinds == {"->>": 10, "-->>": 10, "-)": 2}, "asks, their replies and the Moved tells"
    assert "participant white_knight_g1 as white-knight-g1" in diagram


def test_mermaid_names_each_ply_and_its_move(sample: list[TraceEvent]) -> None:
    notes = [line.strip() for line in to_mermaid(sample).splitlines() if NOTE.match(line)]
    assert notes == [
        "Note over client,referee: ply 1: white g1-f3",
        "Note over client,referee: ply 2: black d7-d5",
    ]


def test_mermaid_shows_the_conversation_in_causal_order(sample: list[TraceEvent]) -> None:
    first_ply = to_mermaid(sample, plies=(1, 1)).splitlines()
    arrows = [line.strip() for line in first_ply if ARROW.match(line)]
    assert arrows == [
        "client->>referee: Propose",
        "referee->>white_knight_g1: MoveQuery",
        "white_knight_g1-->>referee: Yes",
        "referee->>board: BlockersQuery",
        "board-->>referee: Clear",
        "referee->>board: AttackersQuery",
        "board-->>referee: Candidates",
        "referee->>board: Apply",
        "board-)white_knight_g1: Moved",
        "board-->>referee: Applied",
        "referee-->>client: Accepted",
    ]


def test_mermaid_plies_select_only_that_moves_actors(sample: list[TraceEvent]) -> None:
    declared = check_mermaid(to_mermaid(sample, plies=(2, 2)))
    assert set(declared.values()) == {"client", "referee", "board", "black-pawn-d7"}
    assert "ply 1" not in to_mermaid(sample, plies=(2, 2))


def test_mermaid_orders_by_causality_when_the_clock_is_too_coarse() -> None:
    # Every stamp equal, as on a clock that ticks every 15 ms.
    events = [
        event(1, None, "client", "referee", "Propose", sent=0, handled=0, replied=0),
        event(2, 1, "referee", "board", "Apply", sent=0, handled=0, replied=0),
        event(3, 2, "board", "white-pawn-e2", "Moved", sent=0, handled=0),
        event(4, 1, "referee", "white-pawn-e2", "MoveQuery", sent=0, handled=0, replied=0),
    ]
    arrows = [line.strip() for line in to_mermaid(events).splitlines() if ARROW.match(line)]
    assert arrows == [
        "client->>referee: Propose",
        "referee->>board: Apply",
        "board-)white_pawn_e2: Moved",
        "board-->>referee: Ok",
        "referee->>white_pawn_e2: MoveQuery",
        "white_pawn_e2-->>referee: Ok",
        "referee-->>client: Ok",
    ]


def test_mermaid_escapes_text_that_would_break_the_diagram() -> None:
    events = [
        event(
            1, None, "client", "end", 'Odd;Kind#"<b>"', sent=0, handled=1, replied=2, reply="No; #1"
        ),
        event(2, 1, "end", "9-lives", "Loop", sent=1, handled=1, ply=1),
        event(3, 1, "end", "9_lives", "Loop", sent=1, handled=1, ply=1),
    ]
    diagram = to_mermaid(events)
    declared = check_mermaid(diagram)
    assert set(declared.values()) == {"client", "end", "9-lives", "9_lives"}
    assert len(declared) == 4, "two actors that sanitise alike still get distinct aliases"
    assert "end_" in declared, "a keyword is never used as an alias"
    assert "Odd#59;Kind#35;#quot;#lt;b#gt;#quot;" in diagram
    assert "-->>client: No#59; #35;1" in diagram


# --- Perfetto -------------------------------------------------------------------------------


def slices_by_track(trace: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    tracks: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in trace["traceEvents"]:
        if item["ph"] == "X":
            tracks[item["tid"]].append(item)
    return tracks


def assert_slices_nest(trace: dict[str, Any]) -> None:
    for tid, slices in slices_by_track(trace).items():
        for index, a in enumerate(slices):
            assert a["dur"] >= 0
            for b in slices[index + 1 :]:
                a_end, b_end = a["ts"] + a["dur"], b["ts"] + b["dur"]
                disjoint = a_end <= b["ts"] or b_end <= a["ts"]
                a_in_b = b["ts"] <= a["ts"] and a_end <= b_end
                b_in_a = a["ts"] <= b["ts"] and b_end <= a_end
                assert disjoint or a_in_b or b_in_a, (
                    f"track {tid}: {a['name']} overlaps {b['name']}"
                )


def test_perfetto_is_json_with_one_named_track_per_actor(sample: list[TraceEvent]) -> None:
    trace = json.loads(json.dumps(to_perfetto(sample)))
    assert trace["displayTimeUnit"] == "ns"
    names = {
        item["tid"]: item["args"]["name"]
        for item in trace["traceEvents"]
        if item["ph"] == "M" and item["name"] == "thread_name"
    }
    assert sorted(names.values()) == sorted(
        {"client", "referee", "board", "white-knight-g1", "black-pawn-d7"}
    )
    assert len(set(names)) == len(names), "each actor has its own tid"
    assert {item["pid"] for item in trace["traceEvents"]} == {1}
    used = {item["tid"] for item in trace["traceEvents"] if item["ph"] in "Xsf"}
    assert used <= set(names), "every slice and flow sits on a named track"


def test_perfetto_has_a_slice_per_handled_message_in_microseconds(sample: list[TraceEvent]) -> None:
    trace = to_perfetto(sample)
    handled = [
        item for item in trace["traceEvents"] if item["ph"] == "X" and item["cat"] != "request"
    ]
    assert len(handled) == len(sample)
    query = next(item for item in handled if item["args"]["msg_id"] == 2)
    source = sample[1]
    assert source["t_replied"] is not None
    assert query["name"] == "MoveQuery"
    assert query["dur"] == pytest.approx((source["t_replied"] - source["t_handled"]) / 1000)
    assert query["ts"] == pytest.approx((source["t_handled"] - sample[0]["t_sent"]) / 1000)
    assert all(isinstance(item["ts"], float) for item in handled)


def test_perfetto_slices_nest_on_every_track(sample: list[TraceEvent]) -> None:
    assert_slices_nest(to_perfetto(sample))


def test_perfetto_every_flow_start_has_exactly_one_end(sample: list[TraceEvent]) -> None:
    trace = to_perfetto(sample)
    starts = Counter(item["id"] for item in trace["traceEvents"] if item["ph"] == "s")
    ends = [item for item in trace["traceEvents"] if item["ph"] == "f"]
    assert starts == Counter(item["id"] for item in ends)
    assert set(starts.values()) == {1}
    assert all(item["bp"] == "e" for item in ends)
    tids = {
        item["args"]["name"]: item["tid"]
        for item in trace["traceEvents"]
        if item.get("name") == "thread_name"
    }
    apply_start = next(
        item for item in trace["traceEvents"] if item["ph"] == "s" and item["id"] == 5
    )
    apply_end = next(item for item in ends if item["id"] == 5)
    assert apply_start["tid"] == tids["referee"] and apply_end["tid"] == tids["board"]
    assert apply_start["ts"] < apply_end["ts"]


def test_perfetto_flows_start_and_end_inside_slices(sample: list[TraceEvent]) -> None:
    trace = to_perfetto(sample)
    tracks = slices_by_track(trace)
    for flow in (item for item in trace["traceEvents"] if item["ph"] in "sf"):
        inside = [s for s in tracks[flow["tid"]] if s["ts"] <= flow["ts"] <= s["ts"] + s["dur"]]
        assert inside, f"flow {flow['ph']} of message {flow['id']} has no slice to bind to"


def test_perfetto_clamps_slices_that_clock_noise_makes_overlap() -> None:
    events = [
        event(1, None, "client", "referee", "Propose", sent=0, handled=1_000, replied=5_000),
        # Handled on the referee's own track, ending a little after its parent: noise.
        event(2, 1, "referee", "referee", "Check", sent=2_000, handled=2_000, replied=5_400),
        event(3, 1, "referee", "board", "Apply", sent=2_500, handled=3_000, replied=4_000),
        # A tell whose nominal slice would run into the next message on the board's track.
        event(4, 3, "board", "white-pawn-e2", "Moved", sent=3_500, handled=3_600),
        event(
            5, 1, "referee", "white-pawn-e2", "MoveQuery", sent=3_700, handled=3_900, replied=4_500
        ),
        # A reply stamped before the handling started.
        event(6, 1, "referee", "board", "Blockers", sent=4_600, handled=4_800, replied=4_700),
    ]
    trace = to_perfetto(events)
    assert_slices_nest(trace)
    moved = next(
        item for item in trace["traceEvents"] if item["ph"] == "X" and item["name"] == "Moved"
    )
    assert moved["dur"] == pytest.approx(0.3), "a tell's slice stops where the next one starts"
    blockers = next(
        item
        for item in trace["traceEvents"]
        if item.get("name") == "Blockers" and item["ph"] == "X"
    )
    assert blockers["dur"] == 0


def test_perfetto_of_no_events_is_an_empty_trace() -> None:
    trace = to_perfetto([])
    assert [item["name"] for item in trace["traceEvents"]] == ["process_name"]


def test_mermaid_draws_every_event_even_when_causes_are_missing_or_out_of_order() -> None:
    events = [
        event(2, 3, "referee", "board", "Apply", sent=20, handled=21, replied=22),
        event(3, 3, "board", "white-pawn-e2", "Moved", sent=30, handled=31),
        event(4, 1, "referee", "board", "Blockers", sent=40, handled=41, replied=42),
    ]
    arrows = [line.strip() for line in to_mermaid(events).splitlines() if ARROW.match(line)]
    assert [arrow.split(": ")[1] for arrow in arrows] == ["Apply", "Ok", "Moved", "Blockers", "Ok"]
