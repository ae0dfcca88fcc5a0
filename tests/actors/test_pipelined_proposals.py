"""Proposals in flight: ``ActorGame.propose_many`` gives the replies ``propose`` gives one by one.

Each proposal carries the ply it is meant to be, so none is made after a refused one, and asking
again after a failure never makes a move twice.
"""

from __future__ import annotations

import pytest

from actors.game.game import ActorGame
from actors.protocol import Accepted, CrashOnNext, ProposeText, Rejected
from actors.roles.registered import REFEREE
from board.games.game import Game
from board.notation.pgn import read_games

DATA = "tests/data"
TIMEOUT = 0.5


def game_moves(name: str) -> list[str]:
    with open(f"{DATA}/{name}", encoding="utf-8") as source:
        return [token.text for token in next(read_games(source)).moves]


OPERA = game_moves("opera-game.pgn")


def sans(replies: list[Accepted | Rejected]) -> list[str]:
    return [reply.san if isinstance(reply, Accepted) else f"refused {reply.text}" for reply in replies]


@pytest.mark.parametrize("window", [1, 3, 16])
def test_a_real_game_in_flight_gets_the_replies_of_one_at_a_time(window: int) -> None:
    moves = game_moves("kasparov-topalov-1999.pgn")
    direct = Game()
    expected = [direct.play(move) for move in moves]
    with ActorGame() as game:
        replies = list(game.propose_many(moves, window))
        assert [(r.san, r.check, r.outcome) for r in replies if isinstance(r, Accepted)] == [
            (played.san, played.check, played.outcome) for played in expected
        ]
        assert len(replies) == len(moves) == game.plies
        assert game.fen() == direct.fen()


def test_nothing_after_a_refused_move_is_made_and_the_game_goes_on() -> None:
    moves = ["e4", "e5", "Nf3", "Ke6", "Nc6", "Bb5", "a6"]  # the king cannot go e8 -> e6
    with ActorGame() as game:
        replies = list(game.propose_many(moves, window=2))
        assert sans(replies) == ["e4", "e5", "Nf3", "refused Ke6"]
        refused = replies[-1]
        assert isinstance(refused, Rejected) and refused.kind == "illegal"
        assert [entry.san for entry in game.journal] == ["e4", "e5", "Nf3"]
        # The proposals that were already on their way came back stale and changed nothing.
        assert game.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        follow = game.propose("Nc6")
        assert isinstance(follow, Accepted) and follow.san == "Nc6"


def test_a_proposal_tagged_for_another_ply_is_refused_as_stale_and_changes_nothing() -> None:
    with ActorGame() as game:
        early = game.ask(REFEREE, ProposeText("e4", 3))
        assert isinstance(early, Rejected)
        assert (early.kind, early.reason) == ("stale", "meant for ply 3, but ply 1 is next")
        assert game.plies == 0
        played = game.propose("e4")
        assert isinstance(played, Accepted)
        again = game.ask(REFEREE, ProposeText("e4", 1))  # the same move asked twice
        assert isinstance(again, Rejected) and again.kind == "stale"
        assert [entry.san for entry in game.journal] == ["e4"]


def test_a_game_over_refuses_what_follows_with_its_outcome() -> None:
    with ActorGame() as game:
        replies = list(game.propose_many([*OPERA, "Ke7", "a4"]))
        assert sans(replies) == [*OPERA, "refused Ke7"]
        refused = replies[-1]
        assert isinstance(refused, Rejected)
        assert (refused.kind, refused.reason) == ("over", f"the game is over (checkmate at ply {len(OPERA)})")
        assert game.plies == len(OPERA)


@pytest.mark.parametrize(
    ("name", "kind"), [("board", "Apply"), ("black-bishop-c8", "MoveQuery"), ("referee", "ProposeText")]
)
def test_an_actor_crash_mid_stream_is_healed_and_every_move_made_once(name: str, kind: str) -> None:
    with ActorGame(timeout=TIMEOUT) as game:
        game.ask(name, CrashOnNext(kind))
        replies = list(game.propose_many(OPERA, window=4))
        assert game.supervisor.restarts >= 1
        assert sans(replies) == OPERA
        assert [entry.san for entry in game.journal] == OPERA
        assert game.outcome == "checkmate"


def test_a_referee_that_loses_track_after_the_board_moved_is_rebuilt_from_the_journal() -> None:
    # The queen dies on the board's Moved tell, so the referee cannot confirm her check on the king
    # after the board has made Qh5#: rather than go on from a half-learnt position, it stops, and
    # the move is asked again from the journal (where it is not yet) on a rebuilt board.
    moves = ["e4", "f6", "d4", "g5", "Qh5#"]
    with ActorGame(timeout=TIMEOUT) as game:
        game.ask("white-queen-d1", CrashOnNext("Moved"))
        before = game.supervisor.ref(REFEREE)
        replies = list(game.propose_many(moves))
        assert sans(replies) == moves
        last = replies[-1]
        assert isinstance(last, Accepted) and last.outcome == "checkmate"
        assert game.supervisor.ref(REFEREE) is not before
        assert [entry.san for entry in game.journal] == moves
        assert game.fen() == "rnbqkbnr/ppppp2p/5p2/6pQ/3PP3/8/PPP2PPP/RNB1KBNR b KQkq - 1 3"


def test_closing_early_leaves_the_moves_already_sent_made_and_journalled() -> None:
    with ActorGame() as game:
        replies = game.stream_proposals(OPERA, window=4)
        first = next(replies)
        assert isinstance(first, Accepted) and first.san == "e4"
        replies.close()
        made = [entry.san for entry in game.journal]
        assert 1 <= len(made) <= 8 and made == OPERA[: len(made)]
        direct = Game()
        for move in made:
            direct.play(move)
        assert game.fen() == direct.fen()


def test_a_window_must_hold_at_least_one_proposal() -> None:
    with ActorGame() as game, pytest.raises(ValueError, match="window 0: at least one"):
        next(game.propose_many(["e4"], window=0))
    assert game.plies == 0
