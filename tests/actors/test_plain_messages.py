"""Messages and the rules' values are plain frozen, slotted dataclasses: the constructor that runs is the
dataclass's own, it keeps exactly what it is given (integers; names are turned into integers at the
edges), and every protocol message reads its repr from the one table of field meanings."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import actors.protocol as protocol
from actors.kernel import control
from actors.protocol import MoveQuery, Survey
from actors.protocol.names import Named
from board.games.played import Played
from board.notation.written_moves import SanMove, UciMove
from board.rules.geometry import Path
from board.rules.judge import CandidateFacts, Decision, Intent
from board.rules.moves import Move

MESSAGES = [
    kind
    for name in protocol.__all__
    if isinstance(kind := getattr(protocol, name), type) and dataclasses.is_dataclass(kind)
]
# The runtime's own messages know no chess, and the rules' values (``board``) know nothing of the
# protocol: their repr is the dataclass's (a message holding them prints them by name).
PROTOCOL = [kind for kind in MESSAGES if kind.__module__.startswith("actors.protocol.")]
VALUES = [Move, Path, Intent, CandidateFacts, Decision, Played, SanMove, UciMove]


@pytest.mark.parametrize("kind", MESSAGES + VALUES, ids=lambda kind: kind.__name__)
def test_each_is_a_frozen_slotted_dataclass_that_keeps_what_it_is_given(kind: type) -> None:
    fields = dataclasses.fields(kind)
    values = {f.name: (index, f.name) for index, f in enumerate(fields)}
    positional = [values[f.name] for f in fields if not f.kw_only]
    made = kind(*positional, **{f.name: values[f.name] for f in fields if f.kw_only})
    assert {f.name: getattr(made, f.name) for f in fields} == values
    assert not hasattr(made, "__dict__"), f"{kind.__name__} is not slotted"
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, fields[0].name, "changed")
    assert pickle.loads(pickle.dumps(made)) == made


def test_a_constructor_converts_nothing_names_are_for_the_edges() -> None:
    assert MoveQuery(1, 18, 0).start == 1
    # A name where an int belongs is a type error to mypy, and stored as it is at run time.
    named = MoveQuery("b1", 18, 0)  # type: ignore[arg-type]
    assert named.start == "b1"  # type: ignore[comparison-overlap]
    assert Survey(0, 2, 18) == Survey(colour=0, kind=2, target=18, en_passant=-1, check=False, file=-1)


@pytest.mark.parametrize("kind", PROTOCOL, ids=lambda kind: kind.__name__)
def test_every_protocol_message_reads_its_repr_from_the_table_of_field_meanings(kind: type) -> None:
    assert issubclass(kind, Named), f"{kind.__name__} does not read its repr from actors.protocol.names"
    assert kind.__repr__ is Named.__repr__, f"{kind.__name__} needs @dataclass(..., repr=False)"


def test_the_runtimes_own_messages_print_as_dataclasses() -> None:
    assert control.CrashOnNext in MESSAGES, "actors.protocol re-exports the runtime's control messages"
    assert repr(control.CrashOnNext("MoveQuery")) == "CrashOnNext(kind='MoveQuery')"
