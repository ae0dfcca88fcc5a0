"""Many actors on one thread: a hive runs the handlers of actors that never wait on anyone.

A pykka actor is a thread, and a message to it costs a thread switch; an actor that only answers
(a piece: it asks nobody, it only looks at its own square and move function) does not need one of
its own. A hive is one thread whose inbox carries mail for any of its members, first in, first out;
each member keeps its name, its own state, its own ``actor_stopped`` and its own crash (a member that
dies leaves the hive and its siblings running). Twenty questions to twenty pieces then wake one
thread once instead of twenty threads, which is what a ChessMoveQ session pays on every case.

A member must never wait for another actor's reply from its handler (it would hold up its siblings,
and, were one of them the one asked, forever); only answering actors may join a hive.
"""

from __future__ import annotations

from typing import Any

import pykka

from actors.kernel.limits import start_actor_thread
from actors.kernel.mailbox import Posted, Reply, new_inbox

__all__ = ["Hive", "Member"]


class _Addressed:
    """Mail for one member, as the hive's inbox carries it."""

    __slots__ = ("actor", "message", "tell")

    def __init__(self, actor: pykka.Actor, message: Any, tell: bool) -> None:
        self.actor, self.message, self.tell = actor, message, tell


class HiveActor(pykka.ThreadingActor):
    """The hive's thread: delivers each member's mail to the member, in the order it came."""

    @staticmethod
    def _create_actor_inbox() -> Any:
        return new_inbox()

    @staticmethod
    def _create_future() -> Reply:
        return Reply()

    def _start_actor_loop(self) -> None:
        start_actor_thread(self, "hive")  # as every actor's: a refused thread is a clear error

    def _handle_receive(self, message: Any) -> Any:
        if type(message) is not _Addressed:
            return super()._handle_receive(message)  # pykka's own: stopping the hive
        actor = message.actor
        if actor.actor_stopped.is_set():
            if message.tell:
                return None
            raise pykka.ActorDeadError(f"{actor} stopped before handling the message")
        try:
            return actor._handle_receive(message.message)  # the member's own delivery
        except Exception:
            if message.tell:  # a tell has nobody to tell: the member marked itself dead, the hive goes on
                return None
            raise


class _MemberInbox:
    """A member's inbox: what is put in it goes to the hive's, addressed to the member."""

    __slots__ = ("actor", "hive_inbox")

    def __init__(self, actor: pykka.Actor, hive_inbox: Any) -> None:
        self.actor, self.hive_inbox = actor, hive_inbox

    def put(self, posted: Posted) -> None:
        """Post mail for the member (first in, first out with all the hive's mail)."""
        self.hive_inbox.put(
            Posted(_Addressed(self.actor, posted.message, posted.reply_to is None), posted.reply_to)
        )

    def empty(self) -> bool:
        """Whether nothing waits in the hive for anyone."""
        return bool(self.hive_inbox.empty())


class Member(pykka.ActorRef[Any]):
    """What the kernel holds for an actor in a hive: pykka's reference, whose mail goes through the
    hive, and whose actor stops without a thread of its own to end."""

    def __init__(self, hive: Hive, actor: pykka.Actor) -> None:
        super().__init__(actor)
        self.hive = hive
        self.actor_inbox = _MemberInbox(actor, hive.inbox)  # type: ignore[assignment]

    def is_alive(self) -> bool:
        """Whether the member takes mail: not stopped, and its hive running."""
        return not self.actor_stopped.is_set() and self.hive.is_alive()

    def stop(self, block: bool = True, timeout: float | None = None) -> Any:
        """Stop taking mail (mail already posted is answered ActorDeadError). Never waits: a member
        runs no handler outside the hive's thread, so once marked it runs no more."""
        del block, timeout  # nothing to wait for: see above
        self.actor_stopped.set()
        return True

    def __repr__(self) -> str:
        return f"<Member {self.actor_class.__name__} ({self.actor_urn}) in a hive>"


class Hive:
    """One thread for many answering actors; start it, :meth:`adopt` actors, stop it with its ref."""

    def __init__(self) -> None:
        self.ref: pykka.ActorRef[Any] = HiveActor.start()
        self.inbox: Any = self.ref.actor_inbox

    def adopt(self, actor: pykka.Actor) -> Member:
        """Run ``actor`` (made, never started) on the hive's thread; returns its reference.

        Raises:
            pykka.ActorDeadError: the hive has stopped.
        """
        if not self.ref.is_alive():
            raise pykka.ActorDeadError(f"{self.ref} has stopped")
        actor.on_start()
        return Member(self, actor)

    def is_alive(self) -> bool:
        """Whether the hive's thread takes mail."""
        return self.ref.is_alive()
