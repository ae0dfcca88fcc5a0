"""Standard output and error for the command line, guarded: a failed write is an error that names
what could not be written, never a traceback, and a reader that went away ends the command quietly.

:func:`run_guarded` is the one path every subcommand takes: it turns every way a command can end
(an input error, an output error, a closed pipe, no memory, an interrupt) into one line and a status.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, cast

from actors.cli.terminal_text import terminal_safe_line
from board.errors import ChessActorsError, InputError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
"""128 + SIGTERM, as a shell reports a command that SIGTERM ended."""


class Terminated(BaseException):
    """The command received SIGTERM: raised in the main thread, so that every ``finally`` runs
    (actors stop, worker processes are ended and reaped). Not an ``Exception``, so that no
    handler meant for errors swallows it."""


_interrupted = threading.Event()


def _interrupt(signum: int, frame: object) -> None:
    _interrupted.set()
    raise KeyboardInterrupt


def answer_signals() -> None:
    """The checkpoint the command line gives a long computation of the rules core (perft, the
    knight treasure hunt), which calls it every few milliseconds.

    A signal's Python handler (Ctrl-C's, SIGTERM's) runs only when the interpreter runs Python
    code; compiled, the rules core never does, and a count went on for half a minute after Ctrl-C.
    Entering this function is Python code running: a handler pending since the last call runs
    here, and what it raises (KeyboardInterrupt, :class:`Terminated`) ends the computation.
    """


def forget_interrupt() -> None:
    """An interrupt was handled where it came (the shell's prompt): the command goes on, and an
    error it meets later is that error, not the interrupt's doing."""
    _interrupted.clear()


def _terminate(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the cleanup short
    raise Terminated


class OutputError(ChessActorsError):
    """Something the command writes (standard output, a trace file) cannot be written."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"cannot write {what}: {why}")
        self.what = what


class GuardedOutput:
    """A text stream in front of ``sys.stdout`` or ``sys.stderr``.

    A failed write raises :class:`OutputError` naming the stream (``BrokenPipeError`` passes as it
    is: the reader went away); a stream that was closed before the command started (``>&-``) fails
    on its first write the same way. After a failure the stream writes nothing more, so that
    Python's own flush at exit has nothing left to complain about.
    """

    def __init__(self, stream: TextIO | None, what: str) -> None:
        self.stream = stream
        self.what = what
        self.failed = False

    def write(self, text: str) -> int:
        """Write ``text`` (see the class)."""
        if self.failed:
            return len(text)
        if self.stream is None:
            self._give_up()
            raise OutputError(self.what, "it is closed")
        with self._guarded():
            return self.stream.write(text)
        return len(text)  # not reached: a failed write raises

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each of ``lines`` (see the class)."""
        for line in lines:
            self.write(line)

    @property
    def closed(self) -> bool:
        """Whether the stream is closed (or was never open)."""
        return self.stream is None or self.stream.closed

    def flush(self) -> None:
        """Flush the stream (see the class)."""
        if self.failed or self.stream is None:
            return
        with self._guarded():
            self.stream.flush()

    @contextlib.contextmanager
    def _guarded(self) -> Iterator[None]:
        """Give up on the stream when a write or flush fails: a closed pipe as itself, any other
        OSError as an OutputError naming what could not be written."""
        try:
            yield
        except BrokenPipeError:
            self._give_up()
            raise
        except OSError as error:
            self._give_up()
            raise OutputError(self.what, error.strerror or str(error)) from None

    def _give_up(self) -> None:
        self.failed = True
        stream = self.stream
        if stream is None:
            return
        # What is still buffered can never be written: point the descriptor at /dev/null, so that
        # the interpreter's last flush succeeds instead of printing a traceback of its own.
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        """Whether the stream is a terminal (a closed one is not)."""
        try:
            return self.stream is not None and not self.failed and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        """The stream's file descriptor."""
        if self.stream is None:
            raise OSError(f"{self.what} is closed")
        return self.stream.fileno()

    def writable(self) -> bool:
        """Streams in front of an output are writable."""
        return True

    @property
    def encoding(self) -> str:
        """The stream's encoding (UTF-8 for a closed one)."""
        return getattr(self.stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:
        """The stream's error handler."""
        return getattr(self.stream, "errors", None)


def guard_streams() -> tuple[GuardedOutput, GuardedOutput]:
    """Put guarded streams in front of ``sys.stdout`` and ``sys.stderr`` (once); return them."""
    guarded = []
    for name, what in (("stdout", "standard output"), ("stderr", "standard error")):
        current = getattr(sys, name)
        if not isinstance(current, GuardedOutput):
            current = GuardedOutput(current, what)
            setattr(sys, name, cast(TextIO, current))
        guarded.append(current)
    return guarded[0], guarded[1]


def say(line: str) -> None:
    """Write one line to standard error, made safe for a terminal; if even that fails, say nothing."""
    try:
        sys.stderr.write(terminal_safe_line(line) + "\n")
        sys.stderr.flush()
    except (OSError, OutputError):
        pass


def run_guarded(words: list[str], body: Callable[[], int]) -> int:
    """Run ``body`` (a subcommand) and return its exit status, turning every way it can fail into
    one line on standard error naming ``command`` and a documented status:

    - an input error, a file that cannot be read or written, no memory left: 2;
    - a reader that went away (``| head``): 0, quietly (what was asked for was delivered);
    - another project error (an actor or a worker that failed), or a fault of this program: 1;
    - an interrupt: 130, whatever error it was turned into on its way up (a library waiting on a
      reply may report it as a failed call); SIGTERM: 143 (after the same cleanup as any other end).

    ``words`` names the command in those lines; ``body`` may add to it (the subcommand, once parsed).
    """
    stdout, _ = guard_streams()
    previous = previous_interrupt = None
    _interrupted.clear()
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where it is ignored
            previous_interrupt = signal.signal(signal.SIGINT, _interrupt)
    try:
        status = body()
        stdout.flush()  # inside the guard, so that a full disk is reported here and not at exit
        if status != EXIT_OK and _interrupted.is_set():  # a failure the interrupt caused on its way
            say(f"{' '.join(words)}: interrupted")
            return EXIT_INTERRUPTED
        return status
    except InputError as error:
        say(f"{' '.join(words)}: {error}")
        return EXIT_USAGE
    except OutputError as error:
        say(f"{' '.join(words)}: {error}")
        return EXIT_USAGE
    except BrokenPipeError:
        stdout.failed = True
        return EXIT_OK
    except MemoryError:
        say(f"{' '.join(words)}: out of memory (the input is too large for the memory this process may use)")
        return EXIT_USAGE
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        say(f"{' '.join(words)}: cannot read{where}: {error.strerror or error}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        say(f"{' '.join(words)}: interrupted")
        return EXIT_INTERRUPTED
    except Exception as error:
        if _interrupted.is_set():
            say(f"{' '.join(words)}: interrupted")
            return EXIT_INTERRUPTED
        if isinstance(error, ChessActorsError):
            say(f"{' '.join(words)}: {error}")
        else:  # a fault of this program: still one line, never a traceback
            say(f"{' '.join(words)}: unexpected error: {type(error).__name__}: {error}")
        return EXIT_FAILED
    except Terminated:
        say(f"{' '.join(words)}: terminated")
        return EXIT_TERMINATED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if previous_interrupt is not None:
            signal.signal(signal.SIGINT, previous_interrupt)


class SideOutput:
    """A file written beside the main output (a trace): a failed write is remembered, not raised,
    so that the verdicts still reach standard output; :meth:`check` raises it once they have."""

    def __init__(self, file: TextIO, what: str, target: _Replaced | None = None) -> None:
        self.file = file
        self.what = what
        self.error: OutputError | None = None
        self.target = target

    def write(self, text: str) -> int:
        """Write ``text``, or nothing once a write has failed."""
        if self.error is None:
            try:
                return self.file.write(text)
            except OSError as error:
                self.error = OutputError(self.what, error.strerror or str(error))
        return len(text)

    def flush(self) -> None:
        """Flush the file, remembering a failure."""
        if self.error is None and not self.file.closed:
            try:
                self.file.flush()
            except OSError as error:
                self.error = OutputError(self.what, error.strerror or str(error))

    def close(self, keep: bool = True) -> None:
        """Close the file (a failure to flush its last lines is remembered, as for a write); with
        ``keep``, put it in the place of its path, else throw it away (an interrupted run)."""
        if self.file.closed:
            return
        self.flush()
        try:
            self.file.close()
        except OSError as error:
            self.error = self.error or OutputError(self.what, error.strerror or str(error))
        if self.target is None:
            return
        if not keep:
            self.target.discard()
            return
        try:
            self.target.commit()
        except OSError as error:
            self.error = self.error or OutputError(self.what, error.strerror or str(error))
            self.target.discard()

    def check(self) -> None:
        """Raise the first failed write, if any (after a last flush).

        Raises:
            OutputError: the file could not be written.
        """
        self.flush()
        if self.error is not None:
            raise self.error


def open_side_output(path: str, option: str) -> SideOutput:
    """Open ``path`` for writing as the file of ``option`` (e.g. '--trace'): written to a temporary
    file beside it, which :meth:`SideOutput.close` puts in its place (see :func:`side_output`).

    Raises:
        InputError: the file cannot be opened.
    """
    try:
        target = _Replaced(path)
        file = open(target.written, "w", encoding="utf-8")  # noqa: SIM115 (closed by the caller's stack)
    except OSError as error:
        raise InputError(f"{option} {path}: cannot write: {error.strerror}") from None
    return SideOutput(file, f"{option} {path}", target)


@contextlib.contextmanager
def side_output(path: str, option: str) -> Iterator[SideOutput]:
    """:func:`open_side_output`, closed when the block ends: the file takes the place of ``path``
    when the block ends or fails with an error (what was written is the record of the run so far),
    and is thrown away when the command is interrupted or terminated, leaving ``path`` as it was.

    Raises:
        InputError: the file cannot be opened.
    """
    output = open_side_output(path, option)
    try:
        yield output
    except Exception:
        output.close()
        raise
    except BaseException:
        output.close(keep=False)
        raise
    output.close()


class _Replaced:
    """A file written under another name beside ``path``, then renamed onto it: the old file stays
    whole until the new one is complete. A path that is not a regular file (a FIFO, a terminal,
    ``/dev/null``) is written in place, as renaming onto it would replace the device itself."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.written = path
        try:
            status = os.stat(path)
        except FileNotFoundError:
            status = None
        if status is not None and not stat.S_ISREG(status.st_mode):
            return
        folder, name = os.path.split(os.path.abspath(path))
        self.written = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.partial")
        # Made as a new file is (the umask applies), then given the mode of the file it replaces.
        os.close(os.open(self.written, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        if status is not None:
            os.chmod(self.written, stat.S_IMODE(status.st_mode))

    def commit(self) -> None:
        """Put the written file in the place of ``path``."""
        if self.written != self.path:
            os.replace(self.written, self.path)

    def discard(self) -> None:
        """Throw the written file away (``path`` is left as it was)."""
        if self.written != self.path:
            with contextlib.suppress(OSError):
                os.unlink(self.written)


@contextlib.contextmanager
def replaced_file(path: str, option: str) -> Iterator[str]:
    """The path to write ``option``'s file (e.g. '--html') to: a temporary file beside ``path``,
    renamed onto it when the block ends without an error, removed otherwise.

    Raises:
        InputError: naming ``option`` and ``path``, when the file cannot be made or written.
    """
    try:
        target = _Replaced(path)
    except OSError as error:
        raise InputError(f"{option} {path}: cannot write: {error.strerror}") from None
    try:
        yield target.written
        target.commit()
    except OSError as error:
        target.discard()
        raise InputError(f"{option} {path}: cannot write: {error.strerror}") from None
    except BaseException:
        target.discard()
        raise


def refuse_inputs_as_outputs(outputs: Iterable[tuple[str, str | None]], inputs: Iterable[str]) -> None:
    """Fail before anything is written when an output would overwrite an input, or another output:
    files are the same when they are the same file on disk (device and inode, so a hard link or a
    symbolic link to an input is caught too); ``-`` as an input is standard input, which may be a
    file as well (``< games.pgn``).

    Args:
        outputs: (option, path) of each output (a path of None or ``-``: not given, or stdout).
        inputs: the paths the command reads.

    Raises:
        InputError: naming the output's option and path, and the input it would overwrite.
    """
    read: dict[tuple[object, ...], str] = {}
    for source in inputs:
        identity = _identity(source)
        if identity is not None:
            read.setdefault(identity, "standard input" if source == "-" else f"the input {source}")
    written: dict[tuple[object, ...], str] = {}
    for option, path in outputs:
        if path is None or path == "-":
            continue
        identity = _identity(path) or ("new", os.path.realpath(path))
        if identity in read:
            raise InputError(f"{option} {path}: is {read[identity]} (the same file); writing it would "
                             "destroy what is read, so give another path")
        if identity in written:
            raise InputError(f"{option} {path}: is also the file of {written[identity]}; give each output "
                             "a path of its own")
        written[identity] = option


def _identity(path: str) -> tuple[object, ...] | None:
    """The file at ``path`` as (device, inode); None when it does not exist, or is a terminal or a
    device such as /dev/null, which reading and writing at once cannot harm."""
    try:
        status = os.fstat(0) if path == "-" else os.stat(path)
    except (OSError, ValueError):
        return None
    if stat.S_ISCHR(status.st_mode):
        return None
    return ("file", status.st_dev, status.st_ino)


def check_writable(path: str, option: str) -> None:
    """Fail before any work when the file of ``option`` (e.g. '--html') could not be written,
    without creating it: its folder must exist and be writable, and the path must not be a folder
    or a file that cannot be written. (A write can still fail later, a full disk say; that is
    reported then, naming the file too.)

    Raises:
        InputError: naming ``option``, ``path`` and why.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        problem = "is a directory"
    elif not os.path.isdir(folder):
        problem = f"no such directory {folder}"
    elif os.path.exists(path):
        problem = "" if os.access(path, os.W_OK) else "permission denied"
    else:
        problem = "" if os.access(folder, os.W_OK | os.X_OK) else f"permission denied in {folder}"
    if problem:
        raise InputError(f"{option} {path}: cannot write: {problem}")
