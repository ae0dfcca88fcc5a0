"""Proposals with many in flight at once: the part of the game facade that keeps the referee's mailbox full.

A window of proposals is sent before the last one is collected; after a failure the rest are asked again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import suppress
from itertools import islice
from typing import TYPE_CHECKING

from actors.kernel.errors import ActorFailure
from actors.kernel.messaging import WINDOW, Pending, ask, post, wait_one
from actors.protocol.referee import Accepted, ProposeSquares, ProposeText, Rejected, Verdict
from actors.protocol.values import JournalEntry
from actors.roles.registered import CLIENT, REFEREE

if TYPE_CHECKING:
    from actors.kernel.network import Network
    from actors.roles.supervisor import Supervisor
    from actors.tracing.recorder import TraceRecorder


Proposal = ProposeText | ProposeSquares
InFlight = tuple[Proposal, Pending[Verdict] | None]
"""A proposal sent without waiting, and its pending reply (None when it could not be sent)."""


class ProposalStream:
    """What :class:`~actors.client.game.ActorGame` does to propose many moves with many in flight."""

    supervisor: Supervisor
    recorder: TraceRecorder | None
    timeout: float
    _state: str
    _entries: list[JournalEntry]
    _journal: Callable[[Sequence[Accepted]], None]
    _sending: bool
    _check_open: Callable[[], None]
    _propose: Callable[[Proposal, Iterable[Pending[Verdict] | None]], Verdict]
    _played: Callable[[Verdict], Verdict]
    network: Network | None

    def propose_many(self, texts: Iterable[str], window: int = WINDOW) -> list[Verdict]:
        """Propose moves in order, as :meth:`propose` one by one would, with many in flight at once.

        Every move is judged before this returns (:meth:`stream_proposals` is the lazy form, for a
        stream too long to hold or read as it goes).

        Args:
            texts: the moves, in SAN or UCI, in the order they are to be played.
            window: how many proposals may be in flight at once (at least 1).

        Returns:
            The verdicts in order: an Accepted for each move made, ending with the first Rejected if
            a move was refused (the moves after it are not proposed).

        Raises:
            GameClosed: the game is not started, or closed.
            ValueError: ``window`` is less than 1.
            ActorFailure: as :meth:`propose`.
        """
        return list(self.stream_proposals(texts, window))

    def stream_proposals(self, texts: Iterable[str], window: int = WINDOW) -> Generator[Verdict, None, None]:
        """Propose moves in order as the returned iterator is read: nothing is sent before the first
        reply is asked for.

        Yields the replies in order and ends after the first Rejected. The proposals go out a window
        at a time, and the next window is sent before this one is collected: the referee always has
        mail, and the client waits once a window instead of once a move. Each is tagged with the ply
        it is meant to be, so that the referee refuses (as stale) any that comes after a refused
        one: only moves yielded as Accepted are made. When an actor fails, the supervisor heals and
        the moves not yet made are proposed again, one at a time.

        Moves already sent are made even if the iterator is closed early; they are in :attr:`journal`.

        Raises:
            GameClosed: the game is not started, or closed (checked again when a reply is asked for).
            ValueError: ``window`` is less than 1.
            ActorFailure: as :meth:`propose`.
        """
        if window < 1:
            raise ValueError(f"window {window}: at least one proposal must be in flight")
        self._check_open()
        return self._propose_many(iter(texts), window)

    def _propose_many(self, source: Iterable[str], window: int) -> Generator[Verdict, None, None]:
        windows: deque[list[InFlight]] = deque()
        next_ply = len(self._entries) + 1

        def send() -> None:
            nonlocal next_ply
            batch: list[InFlight] = []
            for text in islice(source, window):
                message = ProposeText(text, next_ply)
                batch.append((message, self._send(REFEREE, message, next_ply)))
                next_ply += 1
            if batch:
                windows.append(batch)

        try:
            self._check_open()
            self._sending = True
            send()
            while windows:
                self._check_open()  # a stream read on after close() must not reach the actors
                send()
                batch = windows.popleft()
                replies = self._collect(batch)
                self._journal([reply for reply in replies if isinstance(reply, Accepted)])
                for reply in replies:
                    yield reply
                    if isinstance(reply, Rejected):
                        return
                if len(replies) < len(batch):  # an actor failed: heal, and ask the rest again
                    redo = batch[len(replies) :] + [item for later in windows for item in later]
                    windows.clear()
                    for message, pending in redo:
                        reply = self._played(self._propose(message, (pending,)))
                        yield reply
                        if isinstance(reply, Rejected):
                            return
                    next_ply = len(self._entries) + 1
                    send()  # and go on with the rest as before
        finally:
            self._settle(windows)
            self._sending = False

    def _send(self, name: str, message: Proposal, ply: int) -> Pending[Verdict] | None:
        """Ask without waiting; None if the actor is not there to ask."""
        try:
            return ask(self.supervisor.ref(name), name, post(self.recorder, CLIENT, name, message, None, ply))
        except ActorFailure:
            return None

    def _collect(self, batch: list[InFlight]) -> list[Verdict]:
        """The replies of a window, in order, up to the first that failed (or came back stale).

        The referee answers in order, so waiting for the last reply waits for them all; it is the
        only wait, and its timeout bounds the window's. Over failing links the replies are waited
        for in turn, each for a whole timeout after the one before it: a window of lossy plies may
        take longer than one timeout while every reply comes in time, and whether the game heals
        must not depend on how fast the machine ran them.
        """
        last = batch[-1][1]
        if last is not None and self.network is not None:
            with suppress(ActorFailure):  # the first failure is found below, in order
                for _, pending in batch:
                    if pending is None:
                        break
                    wait_one(*pending, self.timeout)
        elif last is not None:
            with suppress(ActorFailure):  # the first failure is found below, in order
                wait_one(*last, self.timeout)
        replies: list[Verdict] = []
        for _, pending in batch:
            if pending is None:
                break
            try:
                reply = wait_one(*pending, 0)
            except ActorFailure:
                break
            stale = isinstance(reply, Rejected) and reply.kind == "stale"
            if stale or not isinstance(reply, (Accepted, Rejected)):
                break
            replies.append(reply)
        return replies

    def _settle(self, windows: deque[list[InFlight]]) -> None:
        """Wait for the replies still in flight, so that what they did is done, and journal it.

        The referee answers in order, so a reply that is not an acceptance ends what can be made."""
        if self._state != "started":
            return
        made: list[Accepted] = []
        for batch in windows:
            for _, pending in batch:
                if pending is None:
                    break
                try:
                    reply = wait_one(*pending, self.timeout)
                except ActorFailure:
                    break
                if not isinstance(reply, Accepted) or reply.entry is None:
                    break
                made.append(reply)
        self._journal(made)
