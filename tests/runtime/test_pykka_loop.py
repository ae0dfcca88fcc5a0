"""The kernel's actors run pykka's private actor loop, adapted (see TracedActor._actor_loop_running),
and call some of pykka's private members: those hold for the pykka versions the project pins, and
these tests say when an installed pykka is not the one the adaptation was made from."""

from __future__ import annotations

import hashlib
import inspect
from importlib.metadata import requires, version

import pykka
from packaging.requirements import Requirement

from actors.kernel.actor import TracedActor

PYKKA_LOOP = "bb7f5ea4c2ac3a1299aa458b7f9f5da695b73cfd214a404cdfab63bd3214ec12"
"""SHA-256 of pykka 4.5's ``Actor._actor_loop_running`` (its source, dedented): the loop the kernel's
is adapted from. Another pykka's loop means reading the two again before moving the pin."""

PRIVATE = {
    "_actor_loop_running": "(self) -> 'None'",
    "_handle_receive": "(self, message: 'Any') -> 'Any'",
    "_handle_failure": "(self, exception_type: 'type[BaseException] | None', exception_value: "
                       "'BaseException | None', traceback: 'TracebackType | None') -> 'None'",
    "_stop": "(self) -> 'None'",
    "_create_actor_inbox": "() -> 'ActorInbox'",
    "_create_future": "() -> 'Future[Any]'",
    "_start_actor_loop": "(self) -> 'None'",
}
"""The private members of pykka's actor that the kernel overrides or calls, with their signatures."""


def _pin() -> Requirement:
    declared = [Requirement(line) for line in requires("chess-actors") or ()]
    [pykka_pin] = [requirement for requirement in declared if requirement.name == "pykka"]
    return pykka_pin


def test_the_installed_pykka_is_a_version_the_project_pins() -> None:
    pin = _pin()
    assert pin.specifier, "pykka is pinned to a range, not left open"
    assert pin.specifier.contains(version("pykka")), f"pykka {version('pykka')} is outside {pin}"
    assert not pin.specifier.contains("4.6.0"), "the pin ends before pykka's next minor version"


def test_pykka_s_loop_is_the_one_the_kernel_s_loop_was_adapted_from() -> None:
    source = inspect.cleandoc(inspect.getsource(pykka.Actor._actor_loop_running))
    assert hashlib.sha256(source.encode()).hexdigest() == PYKKA_LOOP, source
    # The adaptation replaces the loop and nothing else of pykka's running of an actor.
    assert TracedActor._actor_loop_running is not pykka.Actor._actor_loop_running
    assert pykka.Actor._actor_loop.__qualname__ == "Actor._actor_loop"


def test_every_private_member_the_kernel_uses_is_there_as_it_expects() -> None:
    found = {name: str(inspect.signature(getattr(pykka.ThreadingActor, name))) for name in PRIVATE}
    assert found == PRIVATE
