"""chess-actors shell: through stdin as a script, and through a pseudo-terminal as a person uses it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from actors.game.replay import MoveReport
from actors.study.shell import Shell
from actors.study.shell_words import completions
from board.errors import InputError
from tests.helpers.extras import import_or_skip

if TYPE_CHECKING:
    import pexpect

SHELL = [sys.executable, "-m", "actors.cli", "shell"]


def shell_script(text: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SHELL, *options], input=text, capture_output=True, text=True, timeout=120,
                          check=False)


def played_move(ply: int, san: str, uci: str) -> MoveReport:
    """The verdict the shell shows for a move accepted at ``ply`` from the starting position."""
    return MoveReport(ply, (ply + 1) // 2, (ply - 1) % 2, san, san, uci)


def test_commands_piped_in_play_a_game_and_show_the_board() -> None:
    done = shell_script("play e4\nplay e5\nboard\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "chess> play e4\n✓ ply   1  1.     e4\nchess> play e5\n✓ ply   2  1...   e5\n" in done.stdout
    assert "FEN rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in done.stdout
    assert done.stderr == ""


def test_a_ply_stepped_by_hand_lists_its_deliveries_and_ends_accepted() -> None:
    done = shell_script("mode step\nplay Nf3\ndeliver 9\nstep\npending\nrun\nmode auto\nfen "
                        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n")
    assert done.returncode == 1, "a bad index is an error, so a piped script reports it"
    out = done.stdout
    assert "chess> deliver 9\nerror: deliver 9: the pending list has 1 that can run now\nchess> step" in out
    assert done.stderr == ("chess-actors shell: 1 of the commands failed; the first: deliver 9:"
                           " the pending list has 1 that can run now\n")
    assert "1. referee <- client: ProposeText(text='Nf3'" in out
    assert "delivered: referee <- client" in out
    assert "white-knight-g1 <- referee: MoveQuery" in out and "board <- referee: Survey" in out
    assert "referee resumes (reply in from" in out
    assert "✓ ply   1  1.     Nf3" in out
    assert "✓ line   8  fen" in out, "the bad index left the game as it was, and the ply went on"


def test_bad_input_is_one_error_line_and_the_shell_goes_on() -> None:
    done = shell_script("order nobody\norder board\nplay e4\nstep\nmode sideways\nfen "
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nplay e4\n")
    errors = [line for line in done.stdout.splitlines() if line.startswith("error:")]
    assert done.stderr.startswith(
        "chess-actors shell: 4 of the commands failed; the first: order: no actor is called nobody")
    assert errors[0] == "error: order: no actor is called nobody (see: actors)"
    assert errors[1].startswith("error: order does not match the game: schedule step 1 names board")
    assert errors[1].endswith("the game is unchanged")
    assert errors[2].startswith("error: nothing is in flight")
    assert errors[3].startswith("error: mode needs step")
    assert len(errors) == 4
    assert "✓ line   6  fen" in done.stdout and "✓ ply   1  1.     e4" in done.stdout


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
        assert shell.execute("play Nf3")[0] == played_move(3, "Nf3", "g1f3")
        assert last_order(shell)[:len(newest_first)] == newest_first


def test_save_writes_a_scenario_that_run_replays(tmp_path: Path) -> None:
    path = tmp_path / "session.scenario"
    commands = "play e4\nreject e4\nplay e5\nsend white-knight-g1 move g1 f3\nexpect yes\n"
    done = shell_script(f"{commands}save {path}\n")
    assert done.returncode == 0, done.stderr
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[1:] == ["schedule fifo", "play e4", "reject e4", "play e5",
                                    "send white-knight-g1 move g1 f3", "expect yes"]
    replay = subprocess.run([sys.executable, "-m", "actors.cli", "run", str(path)], capture_output=True,
                            text=True, timeout=120, check=False)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_completion_offers_verbs_then_actor_names_and_squares() -> None:
    with Shell() as shell:
        assert completions(shell.names(), "pl", "pl") == ["play"]
        assert "white-knight-g1" in completions(shell.names(), "send white-kn", "white-kn")
        assert completions(shell.names(), "legal e", "e")[:2] == ["e1", "e2"]


def test_the_shell_on_a_terminal_prompts_completes_and_keeps_history() -> None:
    pexpect = import_or_skip("pexpect")
    child = pexpect.spawn(SHELL[0], SHELL[1:], encoding="utf-8", timeout=30, dimensions=(40, 140))
    try:
        child.expect("type a move")
        child.expect_exact("chess> ")
        child.send("pla\t")  # tab completes the verb
        child.expect_exact("play")
        child.sendline(" e4")
        child.expect(r"ply   1  1\.\s+\S*e4")
        child.expect_exact("chess> ")
        child.sendline("mode step")
        child.expect("each delivery waits")
        child.sendline("play e5")
        child.expect(r"1\. referee <- client: ProposeText")
        child.sendline("deliver 7")
        child.expect("the pending list has 1 that can run now")
        child.sendline("run")
        child.expect(r"ply   2  1\.\.\.\s+\S*e5")
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


# --- stalling an actor ----------------------------------------------------------------------

SILENT = "the supervisor found {} silent (stalled: it answered nothing in time) and restarted it"


def test_a_stalled_piece_is_found_silent_and_restarted_and_the_game_goes_on_piped() -> None:
    done = shell_script("stall white-knight-g1\npending\nplay Nf3\nrestarts 1\nplay e5\n"
                        "square f3 white knight white-knight-g1\nquit\n")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "white-knight-g1 answers nothing for 15 s" in out, "the default: three ask timeouts"
    assert "white-knight-g1 is stalled for 15 s more of the schedule's time" in out
    assert "✓ ply   1  1.     Nf3\n  " + SILENT.format("white-knight-g1") + "\nchess> restarts 1" in out
    assert "✓ ply   2  1...   e5" in out and "✓ line   6  square f3" in out


def test_a_stalled_board_and_a_stalled_referee_are_replaced_and_every_move_is_still_judged() -> None:
    with Shell() as shell:
        shell.execute("stall board 20")
        played = shell.execute("play e4")
        assert played[0] == played_move(1, "e4", "e2e4") and played[1:] == ["  " + SILENT.format("board")]
        shell.execute("stall referee")
        played = shell.execute("reject e4")  # a move the new referee must refuse: e4 is taken
        assert played[0].ok, played  # type: ignore[union-attr]
        assert played[1:] == ["  " + SILENT.format("referee")]
        assert shell.game.supervisor.restarts == 2
        assert shell.execute("play e5")[0] == played_move(2, "e5", "e7e5")
        assert shell.execute("board")[0].fen == (  # type: ignore[union-attr]
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")


def test_a_stall_shorter_than_the_timeout_is_only_a_late_answer() -> None:
    with Shell() as shell:
        shell.execute("stall white-knight-g1 2")  # the ask timeout is 5 s: the knight answers in time
        assert [str(item) for item in shell.execute("play Nf3")][1:] == []
        assert shell.game.supervisor.restarts == 0
        assert shell.turnstile.clock == 2.0, "the schedule waited for the knight, and no longer"


def test_stepping_a_move_to_a_stalled_piece_shows_the_timeout() -> None:
    done = shell_script("stall white-knight-g1\nmode step\nplay Nf3\nrun\nquit\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "queued: white-knight-g1 is stalled for 15 s more" in done.stdout
    assert "referee resumes (timed out from white-knight-g1)" in done.stdout
    assert "✓ ply   1  1.     Nf3" in done.stdout


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("stall", "stall needs an actor, and optionally seconds: stall white-knight-g1 12"),
        ("stall board soon", "stall: 'soon' is not a number of seconds, e.g. stall board 12"),
        ("stall board 0", "stall: a stall lasts more than 0 and at most 60 seconds, not 0"),
        ("stall board 61", "stall: a stall lasts more than 0 and at most 60 seconds, not 61"),
        ("stall board -1", "stall: a stall lasts more than 0 and at most 60 seconds, not -1"),
    ],
)
def test_a_stall_with_bad_seconds_is_one_error_line_and_changes_nothing(command: str, message: str) -> None:
    with Shell() as shell:
        with pytest.raises(InputError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
            shell.execute(command)
        assert shell.turnstile.held() == {}
        assert shell.execute("play e4")[0] == played_move(1, "e4", "e2e4")


def test_stalling_an_unknown_actor_fails_that_step_alone() -> None:
    done = shell_script("stall queen\nstall e4\nplay e4\nquit\n")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    failed = "✗ line   1  stall queen" + " " * 22 + "expected queen stalled; got no actor is called queen"
    assert failed in lines
    assert any(line.startswith("✗ line   2  stall e4") and line.endswith("there is no piece on e4")
               for line in lines)
    assert "✓ ply   1  1.     e4" in done.stdout
    assert done.stderr.startswith("chess-actors shell: 2 of the commands failed; the first: stall queen")


def test_the_shell_on_a_terminal_stalls_a_piece_and_shows_the_supervisor_at_work() -> None:
    pexpect = import_or_skip("pexpect")
    child = pexpect.spawn(SHELL[0], SHELL[1:], encoding="utf-8", timeout=30, dimensions=(40, 140))
    try:
        child.expect_exact("chess> ")
        child.send("stal\t")  # tab completes the verb
        child.expect_exact("stall")
        child.sendline(" white-knight-g1 12")
        child.expect("white-knight-g1 answers nothing for 12 s")
        child.expect_exact("chess> ")
        child.sendline("stall white-knight-g1 zero")
        child.expect("'zero' is not a number of seconds")
        child.expect_exact("chess> ")
        child.sendline("play Nf3")
        child.expect(r"ply   1  1\.\s+\S*Nf3")
        child.expect_exact(SILENT.format("white-knight-g1"))
        child.expect_exact("chess> ")
        child.sendline("play e5")
        child.expect(r"ply   2  1\.\.\.\s+\S*e5")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_run_replays_a_scenario_with_a_stall_step(tmp_path: Path) -> None:
    # Free actors, real time: the knight sleeps past the referee's ask (5 s) and the supervisor's
    # Ping after it (5 s more), so the move takes about ten seconds.
    path = tmp_path / "stall.scenario"
    path.write_text("play e4\nstall black-knight-g8 11\nplay Nf6\nrestarts 1\n"
                    "square f6 black knight black-knight-g8\nplay d4\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "actors.cli", "run", str(path)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "black-knight-g8 answers nothing for 11 s" in done.stdout
    assert "accepted Nf6" in done.stdout and "1 restart" in done.stdout


# --- a chess shell: moves, verdicts, targets, help, Ctrl-C, JSON -----------------------------


def test_a_bare_move_is_played_and_a_refused_one_is_a_verdict_not_a_failure() -> None:
    done = shell_script("e4\nNc6\ne2e4\nKe2\nO-O\nquit\n")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "✓ ply   1  1.     e4" in lines and "✓ ply   2  1...   Nc6" in lines
    assert "✗ ply   3  2.     e2e4     illegal: there is no white piece on e2" in lines
    assert "✓ ply   3  2.     Ke2" in lines
    castling = "castling kingside needs f8 empty, but the bishop on f8 is there"
    assert f"✗ ply   4  2...   O-O      illegal: {castling}" in lines
    assert "expected" not in done.stdout and done.stderr == ""


def test_a_move_from_a_position_is_numbered_from_it() -> None:
    with Shell("4k3/8/8/8/8/8/8/4K2R b K - 0 40") as shell:
        assert shell.execute("Kd7")[0] == MoveReport(1, 40, 1, "Kd7", "Kd7", "e8d7")
        assert shell.execute("O-O")[0] == MoveReport(2, 41, 0, "O-O", "O-O", "e1g1")


def test_legal_alone_shows_the_targets_and_is_saved_as_the_check_it_passes(tmp_path: Path) -> None:
    path = tmp_path / "asked.scenario"
    done = shell_script(f"e4\ne5\nlegal f1\nlegal e8\nlegal b1 a3 c3\nKe3\nsave {path}\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "chess> legal f1\nlegal from f1: a6 b5 c4 d3 e2\n" in done.stdout
    assert "chess> legal e8\nlegal from e8: none\n" in done.stdout  # black's king, and white to move
    assert "✓ line   5  legal b1 a3 c3" in done.stdout, "with targets, legal is still a check"
    assert path.read_text(encoding="utf-8").splitlines()[1:] == [
        "schedule fifo", "play e4", "play e5", "legal f1 a6 b5 c4 d3 e2", "legal e8", "legal b1 a3 c3",
        "reject Ke3"]
    replay = subprocess.run([sys.executable, "-m", "actors.cli", "run", str(path)], capture_output=True,
                            text=True, timeout=120, check=False)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_help_lists_every_command_the_shell_takes() -> None:
    from actors.study.shell_words import VERBS

    with Shell() as shell:
        [text] = shell.execute("help")
    words = set(str(text).replace("|", " ").replace(":", " ").split())
    assert [verb for verb in VERBS if verb not in words] == []
    assert "Nc6" in words and "Ctrl-C" in words


def test_json_prints_one_object_per_thing_shown_each_naming_its_command() -> None:
    done = shell_script("e4\nKe7\nlegal g1\nsquare e4 white pawn\nbogus\nboard\n", "--json")
    assert done.returncode == 1
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["command"] for record in records] == [
        "e4", "Ke7", "legal g1", "square e4 white pawn", "bogus", "board"]
    assert records[0] == {"command": "e4", "ply": 1, "move": "e4", "accepted": True, "san": "e4",
                          "uci": "e2e4", "check": False, "outcome": None, "reason": None, "kind": None}
    assert records[1]["accepted"] is False and records[1]["kind"] == "illegal"
    assert records[2] == {"command": "legal g1", "square": "g1", "targets": []}  # black to move
    assert records[3]["ok"] is True
    # a typo is an unknown command, listed with the shell's own commands, not a script's line
    assert records[4]["error"].startswith("unknown command 'bogus' (commands: a move, play, reject")
    assert "the shell's own: board, pending, step, deliver, run, mode" in records[4]["error"]
    assert "line" not in records[4]["error"] and "step 'bogus'" not in records[4]["error"]
    assert records[5]["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert done.stderr.startswith("chess-actors shell: 1 of the commands failed; the first: bogus")


def _interrupt(child: pexpect.spawn, shown: str) -> None:
    """Press Ctrl-C and wait for what it shows. CPython's readline acts on a signal when it interrupts
    its wait for keys: one that comes while readline is between two waits (just after drawing the
    prompt or echoing a key) is noted but only acted on with the next. Then a second is pressed, as a
    person would; the two fold into one interrupt."""
    import pexpect  # its tests skip without it

    child.sendintr()
    if child.expect_exact([shown, pexpect.TIMEOUT], timeout=NOTED_BUT_WAITING) == 1:
        child.sendintr()
        child.expect_exact(shown)


NOTED_BUT_WAITING = 10.0
"""Seconds after which a Ctrl-C not yet shown is taken to wait for the next signal (a bound: a shell
that answers later still passes, since the second press folds into the first)."""


def test_ctrl_c_cancels_the_line_and_a_second_at_the_empty_prompt_asks_before_leaving() -> None:
    pexpect = import_or_skip("pexpect")
    child = pexpect.spawn(SHELL[0], SHELL[1:], encoding="utf-8", timeout=30, dimensions=(40, 140))
    try:
        child.expect_exact("chess> ")
        child.sendline("e4")
        child.expect(r"ply   1  1\.\s+\S*e4")
        child.expect_exact("chess> ")
        child.send("Ke7")
        child.expect_exact("Ke7")  # typed and shown: a Ctrl-C sent with the keys would flush them unread
        _interrupt(child, "^C")  # the line typed so far is dropped
        child.expect_exact("chess> ")
        _interrupt(child, "leave the shell? the game ends with it [y/N] ")  # a second, at the empty prompt
        child.sendline("n")
        child.expect_exact("chess> ")
        child.sendline("board")
        child.expect_exact("FEN rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")  # no Ke7
        child.expect_exact("chess> ")
        _interrupt(child, "^C")  # once: cancels an empty line, and the shell stays
        child.expect_exact("chess> ")
        child.sendline("e5")  # a command in between: the next Ctrl-C is a first one again
        child.expect(r"ply   2  1\.\.\.\s+\S*e5")
        child.expect_exact("chess> ")
        _interrupt(child, "^C")
        child.expect_exact("chess> ")
        _interrupt(child, "leave the shell?")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
