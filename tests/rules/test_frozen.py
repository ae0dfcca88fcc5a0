"""board.frozen.quick_init: every message and value built with the quicker __init__ takes exactly the
parameters the dataclass would (names, order, defaults, keyword-only), fills every field, and stays
frozen; classes it cannot serve are left as they were."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field

import pytest

import actors.protocol as protocol
from actors.protocol.names import codecs_of
from board.frozen import quick_init
from board.rules.geometry import Path
from board.rules.judge import CandidateFacts, Decision, Intent

SERVED = [
    kind
    for name in protocol.__all__
    if isinstance(kind := getattr(protocol, name), type) and dataclasses.is_dataclass(kind)
] + [Intent, CandidateFacts, Decision, Path]


def _expected_parameters(kind: type) -> list[tuple[str, object, bool]]:
    return [
        (f.name, f.default, f.kw_only)
        for f in dataclasses.fields(kind)  # type: ignore[arg-type]
    ]


def _actual_parameters(kind: type) -> list[tuple[str, object, bool]]:
    parameters = list(inspect.signature(kind.__init__).parameters.values())[1:]
    return [
        (
            p.name,
            dataclasses.MISSING if p.default is inspect.Parameter.empty else p.default,
            p.kind is inspect.Parameter.KEYWORD_ONLY,
        )
        for p in parameters
    ]


def test_every_served_class_got_the_quicker_init() -> None:
    assert len(SERVED) > 60
    for kind in SERVED:
        assert kind.__init__.__qualname__ == f"{kind.__qualname__}.__init__", kind
        assert kind.__init__.__code__.co_filename == "<string>", kind


def _distinct_value(kind: type, name: str, index: int) -> object:
    """A value for one field, distinct from every other field's, that the field stores as given: a
    field that takes squares, pieces or placements by name (actors.protocol.names) keeps a value
    already in the actors' own form, and this picks one of that form's shapes."""
    codec = codecs_of(kind).get(name)
    candidates: list[object] = [(index, name), index, ((index, name),), bytes([index]) * 64,
                                (bytes([index]), name)]  # fmt: skip
    if codec is None:
        return candidates[0]
    for candidate in candidates:
        try:
            if eval(codec.ready, {"value": candidate}):  # the codec's own test, over this candidate
                return candidate
        except (TypeError, IndexError):
            continue
    raise AssertionError(f"no value for {kind.__name__}.{name} passes {codec.ready}")


@pytest.mark.parametrize("kind", SERVED, ids=lambda kind: kind.__name__)
def test_the_quicker_init_takes_the_dataclass_parameters_and_fills_every_field(kind: type) -> None:
    assert _actual_parameters(kind) == _expected_parameters(kind)
    fields = dataclasses.fields(kind)  # type: ignore[arg-type]
    values = {f.name: _distinct_value(kind, f.name, index) for index, f in enumerate(fields)}
    made = kind(**values)
    assert {f.name: getattr(made, f.name) for f in fields} == values
    positional = [values[f.name] for f in fields if not f.kw_only]
    keyword = {f.name: values[f.name] for f in fields if f.kw_only}
    assert kind(*positional, **keyword) == made
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, fields[0].name, "changed")
    assert pickle.loads(pickle.dumps(made)) == made


def test_defaults_are_the_dataclass_defaults_and_missing_arguments_are_errors() -> None:
    @quick_init
    @dataclass(frozen=True, slots=True)
    class Move:
        origin: int
        target: int
        promotion: int = 0
        note: str = field(default="", compare=False)
        _: dataclasses.KW_ONLY
        ply: int = 1

    assert Move(12, 28) == Move(12, 28, 0, "", ply=1)
    assert Move(12, 28, ply=3).ply == 3
    assert dataclasses.replace(Move(12, 28), target=20) == Move(12, 20)
    with pytest.raises(TypeError):
        Move(12)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Move(12, 28, 0, "", 3)  # type: ignore[misc]


def test_classes_it_cannot_serve_are_left_as_they_were() -> None:
    @dataclass(frozen=True)
    class Unslotted:
        a: int

    @dataclass(slots=True)
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")

    for kind in (Unslotted, Mutable, Factory, Checked):
        before = kind.__init__
        assert quick_init(kind) is kind
        assert kind.__init__ is before
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)
