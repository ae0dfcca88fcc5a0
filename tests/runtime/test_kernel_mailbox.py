"""The kernel's replies and inboxes (actors.kernel.mailbox) keep pykka's promises: a reply is read as
often as one likes, times out with pykka's Timeout, carries the actor's error, works with pykka's
combinators, and an ask or tell to a stopped actor says so at once."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import pykka
import pytest

from actors.kernel.actor import TracedActor
from actors.kernel.errors import ActorTimeout, ActorUnavailable
from actors.kernel.mailbox import Reply, post_ask, post_tell
from actors.kernel.messaging import Directory, ask, post, wait_all


class Echo(TracedActor[object]):
    """Answers each message with itself, or raises the exception it is sent."""

    def handle(self, message: object) -> object:
        if isinstance(message, Exception):
            raise message
        return message


def test_a_reply_is_read_again_and_again_once_settled() -> None:
    reply = Reply()
    threading.Timer(0.05, reply.set, args=("e4",)).start()
    assert reply.get(timeout=5) == "e4"
    assert reply.get(timeout=0) == "e4"
    assert reply.get() == "e4"


def test_a_reply_not_settled_in_time_raises_pykkas_timeout() -> None:
    reply = Reply()
    began = time.monotonic()
    with pytest.raises(pykka.Timeout):
        reply.get(timeout=0.05)
    assert time.monotonic() - began < 2
    reply.set(None)  # settled late: still readable, once
    assert reply.get(timeout=0) is None
    with pytest.raises(queue.Full):
        reply.set(1)


def test_a_reply_carries_the_error_it_was_settled_with() -> None:
    reply = Reply()
    try:
        raise ValueError("bad square")
    except ValueError:
        reply.set_exception()
    for _ in range(2):
        with pytest.raises(ValueError, match="bad square"):
            reply.get(timeout=0)
    with pytest.raises(queue.Full):
        reply.set_exception((ValueError, ValueError("again"), None))


def test_pykkas_combinators_work_on_replies() -> None:
    first, second = Reply(), Reply()
    doubled = first.map(lambda value: value * 2)
    joined = pykka.Future.join(first, second)
    first.set(21)
    second.set("b")
    assert doubled.get(timeout=1) == 42
    assert joined.get(timeout=1) == [21, "b"]


def test_asks_and_tells_reach_a_traced_actor_and_come_back_in_order() -> None:
    directory = Directory()
    ref = Echo.start("echo", directory)
    directory.register("echo", ref)
    try:
        pending = [ask(ref, "echo", post(None, "test", "echo", number)) for number in range(50)]
        assert wait_all(pending, 5) == list(range(50))
        assert post_tell(ref, post(None, "test", "echo", "told"))
        failing = ask(ref, "echo", post(None, "test", "echo", KeyError("h9")))
        with pytest.raises(ActorUnavailable, match="crashed"):
            wait_all([failing], 5)
    finally:
        ref.stop()


def test_a_crash_ends_the_actors_loop_whether_it_was_asked_or_told() -> None:
    """The loop takes envelopes one after another without asking whether the actor stopped: a crash
    (let it crash) must still end it, on an ask (the asker hears why) as on a tell, and what was
    posted behind it is never handled (each ask behind it is answered that the actor is gone)."""
    for told in (False, True):
        directory = Directory()
        ref: Any = Echo.start("echo", directory)
        directory.register("echo", ref)
        first = ask(ref, "echo", post(None, "test", "echo", 1))
        if told:
            post_tell(ref, post(None, "test", "echo", KeyError("told")))
        else:
            crashing = ask(ref, "echo", post(None, "test", "echo", KeyError("asked")))
        behind = post_ask(ref, post(None, "test", "echo", 2))
        assert behind is not None
        assert wait_all([first], 5) == [1]
        if not told:
            with pytest.raises(ActorUnavailable, match="crashed"):
                wait_all([crashing], 5)
        with pytest.raises(pykka.ActorDeadError):
            behind.get(timeout=5)
        ref.actor_stopped.wait(5)
        assert not ref.is_alive()
        ref.stop()  # its thread has ended: stopping says so at once


def test_pykkas_own_messages_between_envelopes_take_pykkas_way() -> None:
    directory = Directory()
    ref: Any = Echo.start("echo", directory)
    directory.register("echo", ref)
    pending = ask(ref, "echo", post(None, "test", "echo", "before"))
    stopping = ref.stop(block=False)  # pykka's stop message, behind an envelope
    assert wait_all([pending], 5) == ["before"]
    stopping.get(timeout=5)
    assert not ref.is_alive()


def test_an_ask_or_tell_to_a_stopped_actor_says_so_at_once() -> None:
    directory = Directory()
    ref: Any = Echo.start("echo", directory)
    ref.stop()
    assert post_ask(ref, "anything") is None
    assert post_tell(ref, "anything") is False
    with pytest.raises(ActorUnavailable, match="echo is not running"):
        ask(ref, "echo", post(None, "test", "echo", 1))


class Slow(TracedActor[float]):
    """Sleeps as long as it is told to, then answers."""

    def handle(self, message: float) -> object:
        time.sleep(message)
        return message


def test_several_asks_are_read_in_order_and_a_silent_one_times_out_once() -> None:
    directory = Directory()
    refs = {name: Slow.start(name, directory) for name in ("first", "second", "third")}
    for name, ref in refs.items():
        directory.register(name, ref)
    try:
        quick = [ask(refs[name], name, post(None, "test", name, 0.01)) for name in ("first", "second")]
        assert wait_all(quick, 5) == [0.01, 0.01]
        # The last is waited for first; a silent last one is reported after its timeout, once.
        pending = [ask(refs["first"], "first", post(None, "test", "first", 0.0)),
                   ask(refs["third"], "third", post(None, "test", "third", 1.0))]
        began = time.monotonic()
        with pytest.raises(ActorTimeout, match=r"third did not answer within 0.3 s"):
            wait_all(pending, 0.3)
        assert time.monotonic() - began < 0.9
        # A silent earlier one is the one reported, even when a later one also times out.
        pending = [ask(refs["second"], "second", post(None, "test", "second", 1.0)),
                   ask(refs["first"], "first", post(None, "test", "first", 0.0))]
        with pytest.raises(ActorTimeout, match=r"second did not answer"):
            wait_all(pending, 0.3)
    finally:
        for ref in refs.values():
            ref.stop()
