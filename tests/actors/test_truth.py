"""The actors judged against an independent reference through random sequences of public calls.

Proposals (legal and not, by SAN, UCI and squares, promotions by kind, letter and name, moves back
that make positions repeat), lessons (standard, named, user functions whose answers change, raw
Learn asks, lessons given at the start), board lies (ghosts anywhere, over pieces and kings, pieces
hidden on castling paths) and truths, crashes and heals: after every step the actors and
tests/helpers/reference_judge.py must agree on the verdict, the position, every legal target, the outcome
and the claimable draws, and no accepted move may take a king. Each run counts what happened and
must reach every floor of its coverage table (a class the generator stops reaching fails it).
"""

from __future__ import annotations

import pytest
from hypothesis import note
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scripts import truth as truth_script
from tests.helpers.extras import needs
from tests.helpers.truth_model import (
    COVERAGE,
    PROMOTIONS_GIVEN,
    STARTS,
    Switch,
    Tally,
    TruthRun,
    coverage_misses,
    format_coverage,
    lessons,
    machine_settings,
    start_lessons,
)

LESSONS = sorted(lessons(Switch()))
TALLY = Tally()
"""What the stateful test's runs did, all examples together."""
SQUARES = st.integers(0, 63)
TEXTS = st.one_of(
    st.builds(
        "{}{}{}".format,
        st.sampled_from(["", "N", "B", "R", "Q", "K", "P"]),
        st.sampled_from(["", "x"]),
        st.sampled_from([f + r for f in "abcdefgh" for r in "12345678"]),
    ),
    st.sampled_from(["O-O", "O-O-O", "e8=Q", "bxa8=N", "gxh8=Q", "b1=Q", "Pe2d4", "Kxe8"]),
)


class TruthMachine(RuleBasedStateMachine):
    """One game on the actors and the reference, stepped by the same calls."""

    def __init__(self) -> None:
        super().__init__()
        self.run: TruthRun | None = None

    @initialize(
        fen=st.sampled_from(STARTS),
        picks=st.lists(st.tuples(SQUARES, st.sampled_from(LESSONS)), max_size=2).filter(
            lambda picks: len(picks) != 1 or picks[0][0] % 2 == 0  # a third of the starts are taught
        ),
        hide=st.integers(-3, 7),
    )
    def start(self, fen: str, picks: list[tuple[int, str]], hide: int) -> None:
        self.run = TruthRun(fen, TALLY, taught=start_lessons(fen, picks))
        if hide >= 0:  # some games begin with a piece hidden on a castling path
            self.run.check()
            self.run.hide_on_castling_path(hide, "")

    def teardown(self) -> None:
        if self.run is not None:
            note("The calls, by their squares:\n  " + "\n  ".join(self.run.log))
            self.run.close()

    @property
    def live(self) -> TruthRun:
        assert self.run is not None
        return self.run

    @property
    def lying(self) -> bool:
        return self.run is not None and bool(self.run.reference.ghosts or self.run.reference.hidden)

    @rule(index=st.integers(0, 10_000), form=st.integers(0, 2))
    def propose_a_legal_move(self, index: int, form: int) -> None:
        self.live.propose_legal(index, form)

    @rule(index=st.integers(0, 10_000), form=st.integers(0, 2))
    def propose_another_legal_move(self, index: int, form: int) -> None:
        self.live.propose_legal(index, form)

    @rule(form=st.integers(0, 2))
    def propose_a_move_back(self, form: int) -> None:
        self.live.propose_back(form)

    @rule(form=st.integers(0, 2))
    def shuffle_back_and_forth(self, form: int) -> None:
        self.live.shuffle(form)

    @rule(index=st.integers(0, 100), given=st.sampled_from(PROMOTIONS_GIVEN))
    def promote(self, index: int, given: object) -> None:
        self.live.promote(index, given)

    @rule(origin=SQUARES, destination=SQUARES, promotion=st.sampled_from("qrbn"))
    def propose_by_squares(self, origin: int, destination: int, promotion: str) -> None:
        self.live.propose_squares(origin, destination, promotion)

    @rule(text=TEXTS)
    def propose_a_text(self, text: str) -> None:
        self.live.propose_text(text)

    @rule(at=SQUARES, lesson=st.sampled_from(LESSONS), raw=st.booleans())
    def teach(self, at: int, lesson: str, raw: bool) -> None:
        self.live.teach(at, lesson, raw)

    @rule()
    def flip_the_switch(self) -> None:
        self.live.flip()

    @rule(
        ghosts=st.dictionaries(SQUARES, st.sampled_from("PNBRQpnbrq"), max_size=2),
        hidden=st.lists(SQUARES, max_size=2),
    )
    def lie(self, ghosts: dict[int, str], hidden: list[int]) -> None:
        self.live.lie(ghosts, hidden)

    @rule(at=SQUARES, letter=st.sampled_from("PNBRQKpnbrqk"), king=st.booleans())
    def tell_a_ghost_over_a_piece(self, at: int, letter: str, king: bool) -> None:
        self.live.ghost_over(at, letter, king)

    @rule(which=st.integers(0, 7), ghost=st.sampled_from(["", "p", "N"]))
    def hide_a_piece_on_a_castling_path(self, which: int, ghost: str) -> None:
        self.live.hide_on_castling_path(which, ghost)

    @precondition(lambda self: self.lying)
    @rule()
    def tell_the_truth(self) -> None:
        self.live.truth()

    @rule(who=st.integers(0, 40))
    def crash_and_heal(self, who: int) -> None:
        self.live.crash(who)

    @invariant()
    def actors_agree_with_the_reference(self) -> None:
        if self.run is not None:
            self.run.check()


SETTINGS = machine_settings(40, 40)

STATEFUL_FLOORS = {what: min(share, 0.002) for what, share in COVERAGE.items()} | {"accepted": 0.05}
"""The stateful test's floors: its rules are drawn otherwise than the long run's steps, and it is
short, so most classes must simply happen (and the moves must mostly be made)."""


def test_the_actors_agree_with_the_reference_step_by_step() -> None:
    TALLY.steps, TALLY.sequences = 0, 0
    TALLY.counts.clear()
    run_state_machine_as_test(TruthMachine, settings=SETTINGS)
    table = format_coverage(TALLY, STATEFUL_FLOORS)
    print(table)
    misses = coverage_misses(TALLY, STATEFUL_FLOORS)
    assert not misses, f"the generator no longer reaches: {'; '.join(misses)}\n{table}"


def test_the_long_run_reports_its_steps_and_what_they_did(capsys: pytest.CaptureFixture[str]) -> None:
    status = truth_script.main(["--steps", "60", "--seed", "4", "--without", "lessons,flip,lie"])
    printed = capsys.readouterr().out
    assert status == 0, printed
    first, _, _, last = printed.splitlines()[:4]
    assert first.startswith("steps 60, sequences ")
    assert "heals" in printed and "accepted" in printed
    assert last == "disagreements 0, king captures 0"


def test_the_long_run_refuses_an_unknown_kind_of_step(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        truth_script.main(["--without", "lies"])
    assert exit_info.value.code == 2
    assert "unknown step kinds ['lies']" in capsys.readouterr().err


@needs("ray")
def test_lessons_on_nodes_are_read_as_in_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    from actors.clusters.nodes import Nodes
    from actors.game.game import ActorGame

    with Nodes(2, "local") as nodes:
        # A knight that learns a knight's moves is still a lone knight: insufficient material.
        with ActorGame("7k/8/8/8/8/8/8/KN6 w - - 0 1", nodes=nodes) as game:
            game.piece("b1").learn("knight")
            assert game.outcome == "insufficient_material"
        status = truth_script.run_steps(150, 30, 3, frozenset({"flip"}), 5, nodes=nodes)
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "disagreements 0, king captures 0" in printed
    assert "lessons on nodes" in printed and "MISSED" not in printed, printed
