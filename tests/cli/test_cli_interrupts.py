"""An interrupt ends a command with status 130 and one line, even when something on its way up turned
it into an error or a failed result (a library waiting on a reply may report an interrupted wait as a
failed call); an interrupt handled where it came (the shell's prompt) is not one."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from actors.cli.streams import EXIT_FAILED, EXIT_INTERRUPTED, forget_interrupt, run_guarded
from actors.kernel.errors import ActorUnavailable

pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                reason="signals are handled on the main thread")


def _interrupted_then(after: str) -> int:
    """Interrupt this process, catch the interrupt as a library might, then do ``after``."""
    try:
        os.kill(os.getpid(), signal.SIGINT)  # its handler runs before the next line does
    except KeyboardInterrupt:
        if after == "raise":
            raise ActorUnavailable("its node, node-2, is gone") from None
        if after == "forget":
            forget_interrupt()
            raise ActorUnavailable("the board is not running") from None
        return EXIT_FAILED
    raise AssertionError("the interrupt did not come")


@pytest.mark.parametrize(("after", "status", "said"), [
    ("raise", EXIT_INTERRUPTED, "chess-actors replay: interrupted\n"),
    ("fail", EXIT_INTERRUPTED, "chess-actors replay: interrupted\n"),
    ("forget", EXIT_FAILED, "chess-actors replay: the board is not running\n"),
])
def test_an_interrupt_turned_into_an_error_or_a_failure_still_ends_the_command_as_interrupted(
    capsys: pytest.CaptureFixture[str], after: str, status: int, said: str
) -> None:
    before = signal.getsignal(signal.SIGINT)
    assert run_guarded(["chess-actors", "replay"], lambda: _interrupted_then(after)) == status
    assert capsys.readouterr().err == said
    assert signal.getsignal(signal.SIGINT) is before  # given back as it was


def test_an_error_with_no_interrupt_before_it_is_that_error(capsys: pytest.CaptureFixture[str]) -> None:
    def fails() -> int:
        raise ActorUnavailable("the referee is not running")

    assert run_guarded(["chess-actors", "run"], fails) == EXIT_FAILED
    assert capsys.readouterr().err == "chess-actors run: the referee is not running\n"
