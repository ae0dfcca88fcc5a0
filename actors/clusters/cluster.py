"""Reaching a Ray cluster for bulk replay: the address checked, the cluster reached within a bounded
time or one clear error naming the address, and Ray's own log noise kept off the terminal.

A probe in a child process connects first: Ray retries an unreachable cluster for minutes, logging
from its C++ core, and neither can be stopped from inside the process that started them.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any, Final

from board.errors import InputError

RAY_TIMEOUT_SECONDS = 15.0
"""How long ``--ray ADDRESS`` may take to reach its cluster (``--ray-timeout`` or the variable below)."""
TIMEOUT_VARIABLE = "CHESS_ACTORS_RAY_TIMEOUT"
LOGS_VARIABLE = "CHESS_ACTORS_RAY_LOGS"
"""Set to 1 to see Ray's own log lines (hidden by default)."""

_PROBE = (
    "import sys, ray\n"
    "ray.init(address=sys.argv[1], include_dashboard=False, log_to_driver=False, configure_logging=False)\n"
    "ray.shutdown()\n"
)


RUN_MARK_VARIABLE: Final = "CHESS_ACTORS_RAY_RUN"
"""Set, to a value of its own, in the environment of a process that starts a local Ray: every Ray
process it starts inherits it, which is how the watcher below finds them once the process is gone."""

_WATCHER: Final = r"""
import os, select, signal, sys, time

mark = sys.argv[1].encode()
parent = os.getppid()
known = {}  # pid -> its start time: a Ray process seen below the parent while it ran


def stat(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as found:
            fields = found.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1]), fields[19]  # state, parent, start time


def ray_descendants():
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = stat(int(entry))
            if found is not None and found[0] != "Z":
                children.setdefault(found[1], []).append(int(entry))
    found, waiting = [], [parent]
    while waiting:
        for child in children.get(waiting.pop(), []):
            waiting.append(child)
            try:
                with open(f"/proc/{child}/cmdline", "rb") as cmdline:
                    if child != os.getpid() and b"ray" in cmdline.read():
                        found.append(child)
            except OSError:
                pass
    return found


# Until the end of a pipe that only the process that started Ray holds (it ends however that process
# ends, SIGKILL included), the Ray processes below it are noted: the mark finds most of them at the
# end, and these the rest (a process that rewrote its environment's memory, as a title may).
while True:
    readable, _, _ = select.select([0], [], [], 0.5)
    if readable and not os.read(0, 65536):
        break
    for pid in ray_descendants():
        found = stat(pid)
        if found is not None:
            known.setdefault(pid, found[2])


def left():
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/environ", "rb") as environ:
                    if mark in environ.read().split(b"\0"):
                        found.add(int(entry))
            except OSError:
                pass
    for pid, started in known.items():
        now = stat(pid)
        if now is not None and now[0] != "Z" and now[2] == started:  # the same process, still running
            found.add(pid)
    return found


def sweep(signum):
    found = left()
    for pid in found:
        try:
            os.kill(pid, signum)
        except OSError:
            pass
    return found


sweep(signal.SIGTERM)
ends = time.monotonic() + 2.0
while left() and time.monotonic() < ends:
    time.sleep(0.05)
# Then SIGKILL, swept again and again: a process that one of them started as it went down is marked
# too, and goes the same way.
ends = time.monotonic() + 8.0
while sweep(signal.SIGKILL) and time.monotonic() < ends:
    time.sleep(0.1)
"""
"""The watcher of a local Ray: while the process that started Ray runs, it notes every Ray process
below it; once a pipe that only that process holds ends (however it ends, SIGKILL included), it
stops every process that carries that process's mark or was noted (SIGTERM, then SIGKILL two
seconds later, swept until none is left, for eight seconds at most): Ray's agents otherwise
outlived a killed parent by a minute."""


def watch_local_ray() -> None:
    """Start the watcher of the local Ray this process is about to start, and mark this process's
    environment so that every Ray process started from now on carries the mark.

    The watcher runs in a session of its own (a Ctrl-C sent to the terminal's group must not end it
    before it has done its work) and ends a moment after this process, having stopped what is left.
    """
    if os.environ.get(RUN_MARK_VARIABLE, "").startswith(f"{os.getpid()}-"):
        return  # this process's watcher is already there
    # A mark inherited from a parent names the parent's watcher, which waits for the parent, not for
    # this process: this process's Ray gets a mark and a watcher of its own.
    mark = f"{RUN_MARK_VARIABLE}={os.getpid()}-{secrets.token_hex(8)}"
    watcher = subprocess.Popen([sys.executable, "-c", _WATCHER, mark], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    # The write end stays open, unused, until this process ends; the watcher is never waited for.
    _WATCHERS.append(watcher)
    name, _, value = mark.partition("=")
    os.environ[name] = value


_WATCHERS: list[subprocess.Popen[bytes]] = []


class MissingExtra(InputError):
    """An optional dependency the command needs is not installed."""


class RayUnreachable(InputError):
    """No Ray cluster answered at the address within the time allowed."""


def ray_timeout(given: float | None) -> float:
    """The time allowed to reach a cluster: ``given`` (``--ray-timeout``), else the environment's
    :data:`TIMEOUT_VARIABLE`, else :data:`RAY_TIMEOUT_SECONDS`.

    Raises:
        InputError: the value is not a positive number of seconds.
    """
    where = "--ray-timeout"
    if given is None:
        text = os.environ.get(TIMEOUT_VARIABLE)
        if text is None:
            return RAY_TIMEOUT_SECONDS
        where = TIMEOUT_VARIABLE
        try:
            given = float(text)
        except ValueError:
            raise InputError(f"{where}={text}: expected a number of seconds") from None
    if not 0 < given <= LONGEST_RAY_TIMEOUT:  # NaN fails too; past a day the clocks' waits overflow
        raise InputError(f"{where} {given:g}: expected a positive number of seconds, "
                         f"at most {LONGEST_RAY_TIMEOUT:,}")
    return given


LONGEST_RAY_TIMEOUT: Final = 86_400
"""A day: longer than any cluster takes to answer, and far inside what a wait accepts."""


def ray_logs_wanted() -> bool:
    """Whether Ray's own log lines should be shown (:data:`LOGS_VARIABLE` set to 1)."""
    return os.environ.get(LOGS_VARIABLE, "") == "1"


LOOPBACK_ONLY_VARIABLE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch between a single-machine node and a cluster node, read when Ray is imported.

Set to 0, Ray takes the loopback address as the node's own instead of resolving it to the machine's
network address, and every server it starts (GCS, raylet, object manager, workers, runtime-env
agent) listens on 127.0.0.1 only. It is the mode Ray uses on desktop systems; the name says so.
"""


def prepare_ray(address: str) -> None:
    """What must be settled before Ray is imported: its log level, and for 'local' the loopback
    interface and a token.

    A private Ray ('local') listens on the loopback interface only, so no other machine can reach
    it, and demands a random token that only this process (and the Ray processes it starts) holds,
    so no other user of this machine can either.
    """
    quiet_ray()
    if address == "local":
        # Assigned, not defaulted: a value left in the environment must not open a private Ray
        # to the network.
        os.environ[LOOPBACK_ONLY_VARIABLE] = "0"
        os.environ.setdefault("RAY_AUTH_MODE", "token")
        os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
        _settings_read_again()


def _settings_read_again() -> None:
    """Have a Ray imported already (by another part of the program) read what :func:`prepare_ray` set:
    it reads its settings and the token when it is imported, as Ray's own tests reset them."""
    constants: Any = sys.modules.get("ray._private.ray_constants")
    if constants is not None:
        constants.ENABLE_RAY_CLUSTER = False
    raylet: Any = sys.modules.get("ray._raylet")
    if raylet is not None and not getattr(sys.modules.get("ray"), "is_initialized", lambda: True)():
        raylet.Config.initialize("")
        raylet.AuthenticationTokenLoader.instance().reset_cache()


def quiet_ray() -> None:
    """Keep Ray's Python and C++ log lines off the terminal, unless they were asked for."""
    if ray_logs_wanted():
        return
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
    logging.getLogger("ray").setLevel(logging.CRITICAL)


def reach(address: str, timeout: float) -> None:
    """Make sure a Ray cluster answers at ``address`` within ``timeout`` seconds ('local' needs
    nothing: it is started here).

    Raises:
        RayUnreachable: nothing answered in time, or what answered is not a Ray cluster.
    """
    if address == "local":
        return
    deadline = time.monotonic() + timeout
    if address != "auto":
        host, _, port = address.removeprefix("ray://").rpartition(":")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
        except OSError as error:
            why = error.strerror or type(error).__name__.replace("Error", " error").lower()
            if isinstance(error, TimeoutError):
                why = f"no answer within {timeout:g} s"
            raise RayUnreachable(f"--ray {address}: cannot reach a Ray cluster there ({why})") from None
    left = max(0.1, deadline - time.monotonic())
    show = None if ray_logs_wanted() else subprocess.PIPE
    try:
        probe = subprocess.run([sys.executable, "-c", _PROBE, address], stdout=show, stderr=show,
                               timeout=left, check=False, text=True)
    except subprocess.TimeoutExpired:
        raise RayUnreachable(f"--ray {address}: no Ray cluster answered within {timeout:g} s "
                             f"(--ray-timeout or {TIMEOUT_VARIABLE} allows longer)") from None
    if probe.returncode != 0:
        lines = (probe.stderr or "").strip().splitlines()
        last = next((line for line in reversed(lines) if "Error" in line), lines[-1] if lines else "")
        raise RayUnreachable(f"--ray {address}: cannot connect to a Ray cluster there"
                             f"{': ' + last.strip()[:200] if last else ''}")


def init_ray(ray: Any, address: str) -> None:
    """Connect to (or, for 'local', start) Ray (after :func:`prepare_ray`).

    The process's SIGTERM handling is the same afterwards as before: Ray's start installs a handler
    of its own (exit status 15) and its core's crash reporter (a native stack dump on stderr), and
    neither may decide how a command ends (see :func:`actors.cli.streams.run_guarded`).

    Raises:
        RayUnreachable: Ray could not start or connect (its own error, in one line).
    """
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if address == "local":
        options.update(address=None, _node_ip_address="127.0.0.1")
        watch_local_ray()
    else:
        options.update(address=address)
    kept = _sigterm_handler()
    try:
        _init_quietly(ray, options)
    except Exception as error:  # Ray's errors share no base class
        first = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        where = "start a local Ray" if address == "local" else f"connect to a Ray cluster at {address}"
        raise RayUnreachable(f"--ray {address}: cannot {where}: {type(error).__name__}: {first}") from None
    finally:
        if kept is not None:
            # Set again through Python, which replaces whatever Ray's core installed beneath it.
            signal.signal(signal.SIGTERM, kept)
    _keep_ray_reports_off_stdout()


def _keep_ray_reports_off_stdout() -> None:
    """Have what the cluster reports to this driver (a worker process that died, say) leave stdout
    alone: Ray prints those reports on stdout from a thread of its own, with ``log_to_driver`` or
    without it, and stdout carries the command's output (one JSON object a line under --json).

    They go to stderr when Ray's log lines are asked for, and nowhere otherwise: a node that died
    is said in the command's own words, by whoever notices it.
    """
    worker: Any = sys.modules.get("ray._private.worker")
    printed = getattr(worker, "print_to_stdstream", None)
    if printed is None or getattr(printed, "off_stdout", False):
        return

    def off_stdout(data: dict[str, Any], ignore_prefix: bool) -> None:
        if ray_logs_wanted():
            printed({**data, "is_err": True}, ignore_prefix)

    off_stdout.off_stdout = True  # type: ignore[attr-defined]
    worker.print_to_stdstream = off_stdout  # looked up by name each time the thread prints


def _sigterm_handler() -> Any:
    """The SIGTERM handler Python knows of, when this is the main thread (None: none to keep)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.getsignal(signal.SIGTERM)


def _init_quietly(ray: Any, options: dict[str, Any]) -> None:
    if ray_logs_wanted():
        ray.init(**options)
        return
    # Ray's core writes a line or two to the process's stderr as it starts, whatever the log level:
    # the descriptor points at /dev/null meanwhile.
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        ray.init(**options)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)
