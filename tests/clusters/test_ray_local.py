"""A private Ray (``--ray local``) listens on the loopback interface only: every listening socket of
the command and of every process it starts is read from /proc while the replay runs.
"""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.extras import needs

pytestmark = needs("ray")  # looked for, not imported: the commands under test start Ray

DATA = Path(__file__).resolve().parents[1] / "data"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(hex_address: str) -> Address:
    """An address as /proc/net/tcp{,6} writes it: 32-bit words in host (little-endian) order."""
    words = [bytes.fromhex(hex_address[i : i + 8])[::-1] for i in range(0, len(hex_address), 8)]
    packed = b"".join(words)
    return ipaddress.IPv4Address(packed) if len(packed) == 4 else ipaddress.IPv6Address(packed)


def _listening_sockets() -> dict[str, tuple[Address, int]]:
    """Every listening TCP socket and every bound UDP socket of this namespace: inode -> (address, port)."""
    found: dict[str, tuple[Address, int]] = {}
    for table, listening in (("tcp", "0A"), ("tcp6", "0A"), ("udp", "07"), ("udp6", "07")):
        path = Path("/proc/net") / table
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == listening:
                hex_address, hex_port = local.split(":")
                found[inode] = _address(hex_address), int(hex_port, 16)
    return found


def _family(root: int) -> set[int]:
    """``root``, its descendants, and every process of its session (Ray may start its own)."""
    parents: dict[int, int] = {}
    sessions: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # The command name is in parentheses and may hold spaces: split after its end.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        parents[int(entry.name)], sessions[int(entry.name)] = int(fields[1]), int(fields[3])
    family = {pid for pid, session in sessions.items() if session == root} | {root}
    grown = True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grown = bool(more)
    return family


def _socket_inodes(pids: set[int]) -> dict[str, int]:
    """The sockets the processes hold open: inode -> pid."""
    found: dict[str, int] = {}
    for pid in pids:
        try:
            for descriptor in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(descriptor)
                if target.startswith("socket:["):
                    found[target[8:-1]] = pid
        except OSError:
            continue  # ended, or its descriptors changed under us
    return found


def _command_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def test_a_local_ray_listens_on_the_loopback_interface_only(tmp_path: Path) -> None:
    games = tmp_path / "games.pgn"
    games.write_text("\n\n".join([(DATA / "famous.pgn").read_text(encoding="utf-8")] * 40), encoding="utf-8")
    # A value left in the environment that would make Ray a cluster node must not open it up.
    environment = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "1"}
    command = [sys.executable, "-m", "actors.cli", "replay", str(games), "--engine", "direct", "--json",
               "--ray", "local", "--workers", "2"]
    seen: dict[tuple[Address, int], str] = {}  # (address, port) -> the name of the process listening
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
                          start_new_session=True) as replay:
        deadline = time.monotonic() + 240
        while replay.poll() is None and time.monotonic() < deadline:
            held = _socket_inodes(_family(replay.pid))
            for inode, where in _listening_sockets().items():
                if inode in held:
                    seen[where] = _command_name(held[inode])
            time.sleep(0.05)
        if replay.poll() is None:
            replay.kill()
        out, err = replay.communicate(timeout=60)
    assert replay.returncode == 0, err[-2000:]
    assert len(out.splitlines()) == 40 * 7
    # Without Ray's own servers in view the check below would prove nothing.
    assert {"gcs_server", "raylet"} <= set(seen.values()), f"Ray's servers were never seen listening: {seen}"
    exposed = [f"{name} on {address}:{port}" for (address, port), name in seen.items()
               if not _loopback(address)]
    assert not exposed, f"listening beyond the loopback interface: {exposed}"


def _loopback(address: Address) -> bool:
    """127.0.0.0/8 or ::1, also written as IPv6 (``::ffff:127.0.0.1``) as gRPC's dual-stack sockets are."""
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def test_sigterm_ends_a_local_ray_replay_as_it_ends_any_command(tmp_path: Path) -> None:
    games = tmp_path / "games.pgn"
    games.write_text("\n\n".join([(DATA / "famous.pgn").read_text(encoding="utf-8")] * 400), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "actors.cli", "replay", str(games), "--engine", "actors", "--json",
               "--ray", "local", "--workers", "2"]
    with out.open("w") as stdout, subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE, text=True,
                                                   start_new_session=True) as replay:
        deadline = time.monotonic() + 240
        while replay.poll() is None and out.stat().st_size == 0 and time.monotonic() < deadline:
            time.sleep(0.1)  # Ray has started and verdicts come back: the signal comes mid-run
        assert replay.poll() is None, "the replay ended before it could be signalled"
        replay.terminate()
        try:
            _, err = replay.communicate(timeout=120)
        finally:
            deadline = time.monotonic() + 10  # Ray's own processes end as it shuts down
            while (left := _family(replay.pid) - {replay.pid}) and time.monotonic() < deadline:
                time.sleep(0.1)
            for pid in left:
                os.kill(pid, 9)
    assert replay.returncode == 143, err[-2000:]
    assert err.splitlines() == ["chess-actors replay: terminated"], err[-2000:]
    assert not left, f"processes left running after the replay ended: {sorted(left)}"
