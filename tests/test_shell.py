"""chess-actors shell: through stdin as a script, and through a pseudo-terminal as a person uses it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from actors.scenario.shell import Shell, completions
from board.errors import InputError

SHELL = [sys.executable, "-m", "actors.cli", "shell"]


def shell_script(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(SHELL, input=text, capture_output=True, text=True, timeout=120, check=False)


def test_commands_piped_in_play_a_game_and_show_the_board() -> None:
    done = shell_script("play e4\nplay e5\nboard\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "chess> play e4" in done.stdout and "accepted e4" in done.stdout and "accepted e5" in done.stdout
    assert "FEN rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in done.stdout
    assert done.stderr == ""


def test_a_ply_stepped_by_hand_lists_its_deliveries_and_ends_accepted() -> None:
    done = shell_script("mode step\nplay Nf3\ndeliver 9\nstep\npending\nrun\nmode auto\nfen "
                        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n")
    assert done.returncode == 1, "a bad index is an error, so a piped script reports it"
    out = done.stdout
    assert "chess> deliver 9\nerror: deliver 9: the pending list has 1 that can run now\nchess> step" in out
    assert done.stderr == ("chess-actors shell: 1 of the commands failed; the first: deliver 9: deliver 9:"
                           " the pending list has 1 that can run now\n")
    assert "1. referee <- client: ProposeText(text='Nf3'" in out
    assert "delivered: referee <- client" in out
    assert "white-knight-g1 <- referee: MoveQuery" in out and "board <- referee: Survey" in out
    assert "referee resumes (reply in from" in out
    assert "accepted Nf3" in out
    assert "✓ line   8  fen" in out, "the bad index left the game as it was, and the ply went on"


def test_bad_input_is_one_error_line_and_the_shell_goes_on() -> None:
    done = shell_script("order nobody\norder board\nplay e4\nstep\nmode sideways\nfen "
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nplay e4\n")
    errors = [line for line in done.stdout.splitlines() if line.startswith("error:")]
    assert done.stderr.startswith("chess-actors shell: 4 of the commands failed; the first: order nobody")
    assert errors[0] == "error: order: no actor is called nobody (see: actors)"
    assert errors[1].startswith("error: order does not match the game: schedule step 1 names board")
    assert errors[1].endswith("the game is unchanged")
    assert errors[2].startswith("error: nothing is in flight")
    assert errors[3].startswith("error: mode needs step")
    assert len(errors) == 4
    assert "✓ line   6  fen" in done.stdout and "accepted e4" in done.stdout


def last_order(shell: Shell) -> list[str]:
    return str(shell.execute("trace")[-1]).split("order: ")[1].split()


def test_an_order_runs_the_move_in_that_order_and_a_wrong_one_changes_nothing() -> None:
    with Shell() as first:
        first.execute("play e4")
        pawn_order = last_order(first)
        first.execute("play e5")
        first.execute("play Nf3")
        knight_order = last_order(first)
    newest_first = [knight_order[0], *reversed(knight_order[1:3]), *knight_order[3:]]
    with Shell() as shell:
        shell.execute("play e4")
        shell.execute("play e5")
        shell.execute("order " + " ".join(pawn_order))
        with pytest.raises(InputError, match="does not match the game: schedule step 2 names white-pawn-e2"):
            shell.execute("play Nf3")
        assert shell.execute("board")[0].fen.endswith("w KQkq - 0 2")  # type: ignore[union-attr]
        shell.execute("order " + " ".join(newest_first))
        assert "accepted Nf3" in str(shell.execute("play Nf3")[0])
        assert last_order(shell)[:len(newest_first)] == newest_first


def test_save_writes_a_scenario_that_run_replays(tmp_path: Path) -> None:
    path = tmp_path / "session.scenario"
    commands = "play e4\nreject e4\nplay e5\nsend white-knight-g1 move g1 f3\nexpect yes\n"
    done = shell_script(f"{commands}save {path}\n")
    assert done.returncode == 0, done.stderr
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[1:] == ["play e4", "reject e4", "play e5", "send white-knight-g1 move g1 f3",
                                    "expect yes"]
    replay = subprocess.run([sys.executable, "-m", "actors.cli", "run", str(path)], capture_output=True,
                            text=True, timeout=120, check=False)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_completion_offers_verbs_then_actor_names_and_squares() -> None:
    with Shell() as shell:
        assert completions(shell, "pl", "pl") == ["play"]
        assert "white-knight-g1" in completions(shell, "send white-kn", "white-kn")
        assert completions(shell, "legal e", "e")[:2] == ["e1", "e2"]


def test_the_shell_on_a_terminal_prompts_completes_and_keeps_history() -> None:
    child = pexpect.spawn(SHELL[0], SHELL[1:], encoding="utf-8", timeout=30, dimensions=(40, 140))
    try:
        child.expect("type help")
        child.expect_exact("chess> ")
        child.send("pla\t")  # tab completes the verb
        child.expect_exact("play")
        child.sendline(" e4")
        child.expect("accepted e4")
        child.expect_exact("chess> ")
        child.sendline("mode step")
        child.expect("each delivery waits")
        child.sendline("play e5")
        child.expect(r"1\. referee <- client: ProposeText")
        child.sendline("deliver 7")
        child.expect("the pending list has 1 that can run now")
        child.sendline("run")
        child.expect("accepted e5")
        child.expect_exact("chess> ")
        child.send("\x1b[A")  # the up arrow brings back the last command (history)
        child.expect_exact("run")
        child.sendline("")
        child.expect("nothing is in flight")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
