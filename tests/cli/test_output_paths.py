"""Outputs never clobber inputs: every output path of every command is compared with every input
(the same file by device and inode, so hard and symbolic links are caught) before anything is
written, and refused with exit 2; outputs are written beside their target and renamed onto it, so
an interrupted run leaves the old file whole."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from actors.cli.streams import replaced_file, side_output
from board.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
OPERA = ROOT / "tests" / "data" / "opera-game.pgn"
SAMPLE_TRACE = ROOT / "tests" / "data" / "sample.trace.jsonl"
CHECKMATE = ROOT / "actors" / "examples" / "checkmate.scenario"


def chess_actors(*args: str, cwd: Path, stdin: Path | None = None) -> subprocess.CompletedProcess[str]:
    with open(stdin or os.devnull, "rb") as given:
        return subprocess.run([sys.executable, "-m", "actors.cli", *args], cwd=cwd, stdin=given,
                              capture_output=True, text=True, check=False, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})


# (command line with {in} for the input and {out} for the output, the input's original, the option)
COMMANDS = [
    (("replay", "{in}", "--trace", "{out}"), OPERA, "--trace"),
    (("replay", "{in}", "--html", "{out}"), OPERA, "--html"),
    (("replay", "{in}", "{in}", "--engine", "actors", "--json", "--trace", "{out}"), OPERA, "--trace"),
    (("run", "{in}", "--trace", "{out}"), CHECKMATE, "--trace"),
    (("run", "{in}", "--html", "{out}"), CHECKMATE, "--html"),
    (("trace", "{in}", "--to", "jsonl", "-o", "{out}"), SAMPLE_TRACE, "-o"),
    (("trace", "{in}", "--to", "html", "-o", "{out}"), SAMPLE_TRACE, "-o"),
    (("explore", "{in}", "--plies", "1", "--html", "{out}"), OPERA, "--html"),
    (("explore", "{in}", "--plies", "1", "--counterexample", "{out}"), OPERA, "--counterexample"),
]


def _link(kind: str, target: Path, folder: Path) -> Path:
    if kind == "same path":
        return target
    link = folder / f"{kind.replace(' ', '-')}.out"
    if kind == "hard link":
        os.link(target, link)
    else:
        link.symlink_to(target)
    return link


@pytest.mark.parametrize("kind", ["same path", "hard link", "symbolic link"])
@pytest.mark.parametrize(("args", "original", "option"), COMMANDS,
                         ids=[" ".join(args[:1] + args[2:]) for args, _, _ in COMMANDS])
def test_an_output_that_is_an_input_is_refused_before_anything_is_written(
    args: tuple[str, ...], original: Path, option: str, kind: str, tmp_path: Path
) -> None:
    source = tmp_path / original.name
    source.write_bytes(original.read_bytes())
    output = _link(kind, source, tmp_path)
    line = [arg.replace("{in}", str(source)).replace("{out}", str(output)) for arg in args]
    result = chess_actors(*line, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"chess-actors {args[0]}: {option} {output}: is the input {source} (the same "
                             "file); writing it would destroy what is read, so give another path\n")
    assert source.read_bytes() == original.read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.endswith(".partial")) == []


def test_an_output_that_is_standard_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "game.pgn"
    source.write_bytes(OPERA.read_bytes())
    result = chess_actors("replay", "-", "--trace", str(source), cwd=tmp_path, stdin=source)
    assert result.returncode == 2
    assert "is standard input (the same file)" in result.stderr
    assert source.read_bytes() == OPERA.read_bytes()


def test_two_outputs_on_one_file_are_refused(tmp_path: Path) -> None:
    result = chess_actors("replay", str(OPERA), "--trace", "out", "--html", "./out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("chess-actors replay: --html ./out: is also the file of --trace; give each "
                             "output a path of its own\n")
    assert not (tmp_path / "out").exists()


def test_a_device_as_output_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    result = chess_actors("trace", str(SAMPLE_TRACE), "--to", "mermaid", "-o", os.devnull, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# Written beside the target and renamed


def test_a_side_output_replaces_its_file_only_when_the_run_ends(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text("old\n")
    path.chmod(0o640)
    with side_output(str(path), "--trace") as output:
        output.write("new\n")
        assert path.read_text() == "old\n"
    assert path.read_text() == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [item.name for item in tmp_path.iterdir()] == ["trace.jsonl"]


def test_an_error_keeps_what_was_written_and_an_interrupt_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text("old\n")
    with pytest.raises(ValueError), side_output(str(path), "--trace") as output:
        output.write("the run so far\n")
        raise ValueError("an illegal move")
    assert path.read_text() == "the run so far\n"
    with pytest.raises(KeyboardInterrupt), side_output(str(path), "--trace") as output:
        output.write("half\n")
        raise KeyboardInterrupt
    assert path.read_text() == "the run so far\n"
    with pytest.raises(KeyboardInterrupt), replaced_file(str(path), "--html") as written:
        Path(written).write_text("half a page")
        raise KeyboardInterrupt
    assert path.read_text() == "the run so far\n"
    assert [item.name for item in tmp_path.iterdir()] == ["trace.jsonl"]


def test_a_folder_that_cannot_be_written_is_an_input_error_naming_the_option(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^--html .*/missing/page.html: cannot write: No such file"), \
            replaced_file(str(tmp_path / "missing" / "page.html"), "--html"):
        pass


def test_an_interrupted_replay_leaves_the_old_trace_whole(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    trace.write_text("the trace of yesterday\n")
    command = [sys.executable, "-m", "actors.cli", "replay", "-", "--json", "--trace", str(trace)]
    child = subprocess.Popen(command, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert child.stdin is not None and child.stdout is not None and child.stderr is not None
        child.stdin.write(OPERA.read_bytes() * 3)  # the stream stays open: it waits for more
        child.stdin.flush()
        assert '"error": null' in child.stdout.readline().decode()
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=30) == 130
        assert child.stderr.read().decode() == "chess-actors replay: interrupted\n"
    finally:
        child.kill()
        child.wait()
    assert trace.read_text() == "the trace of yesterday\n"
    assert [item.name for item in tmp_path.iterdir()] == ["trace.jsonl"]
