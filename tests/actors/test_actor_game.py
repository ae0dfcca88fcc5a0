"""The actor engine plays whole games: the same SANs, outcome and FEN as the direct engine.

Also: refusals with the direct engine's reasons, and many games at once with no deadlock.
"""

from __future__ import annotations

import threading
import time

import pytest

from actors.game.game import ActorGame
from actors.game.moves import replay_moves
from actors.protocol import Accepted, Rejected
from actors.tracing.recorder import TraceRecorder
from board.errors import IllegalMoveError
from board.games.game import Game

OPERA = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3", "Qe7",
    "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1",
    "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
]


def direct_reason(fen: str, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        Game(fen).play(move)
    return caught.value.reason


def rejected(fen: str, move: str) -> Rejected:
    with ActorGame(fen) as game:
        reply = game.propose(move)
    assert isinstance(reply, Rejected), reply
    assert reply.reason == direct_reason(fen, move)
    return reply


def test_the_opera_game_ends_in_checkmate_as_the_direct_engine_says() -> None:
    direct = Game()
    with ActorGame() as game:
        for move in OPERA:
            reply = game.propose(move)
            played = direct.play(move)
            assert isinstance(reply, Accepted), reply
            assert (reply.san, reply.check, reply.outcome) == (played.san, played.check, played.outcome)
        assert reply.san == "Rd8#"
        assert game.outcome == "checkmate"
        assert game.fen() == direct.fen()
        assert [entry.san for entry in game.journal] == OPERA
        after = game.propose("Ke7")
        assert isinstance(after, Rejected)
        assert after.reason == f"the game is over (checkmate at ply {len(OPERA)})"


def test_uci_and_square_pairs_are_judged_like_san() -> None:
    with ActorGame() as game:
        first = game.propose("g1f3")
        assert isinstance(first, Accepted) and first.san == "Nf3"
        second = game.propose_squares("e7", "e5")
        assert isinstance(second, Accepted) and second.san == "e5"


def test_a_pinned_bishop_cannot_leave_the_pin_line() -> None:
    reply = rejected("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3")
    assert reply.reason == "the bishop on e2 is pinned to the king on e1 by the rook on e7"


def test_the_king_cannot_castle_through_an_attacked_square() -> None:
    reply = rejected("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O")
    assert reply.reason == "the king passes through f1, attacked by the rook on f2"


def test_the_king_cannot_step_into_check() -> None:
    reply = rejected("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kd1")
    assert reply.reason == "the king would be in check on d1 from the rook on d2"


def test_en_passant_cannot_expose_the_king_along_the_rank() -> None:
    reply = rejected("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "bxc6")
    assert reply.reason == "en passant would expose the king on a5 to the rook on h5"


def test_an_ambiguous_move_names_both_pieces() -> None:
    reply = rejected("4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1", "Ne2")
    assert reply.kind == "ambiguous"


def test_a_syntax_error_is_refused_with_its_message() -> None:
    with ActorGame() as game:
        reply = game.propose("Zz9")
    assert isinstance(reply, Rejected) and reply.kind == "syntax"


def test_replay_moves_stops_at_the_first_illegal_move() -> None:
    plies, fen, outcome, error = replay_moves(["e4", "e5", "Ke3"])
    assert plies == 2
    assert error is not None and error[:2] == (3, "Ke3")
    assert fen == Game().fen() or fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
    assert outcome is None


def test_every_message_is_traced_with_its_ply() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose("e4")
    events = recorder.events()
    kinds = {event["kind"] for event in events if event["ply"] == 1}
    # e4: one pawn says yes, so the referee's conditional Apply surveys and moves in one message
    assert {"ProposeText", "MoveQuery", "Survey", "Apply", "Moved"} <= kinds
    proposal = next(event for event in events if event["kind"] == "ProposeText")
    assert proposal["sender"] == "client" and proposal["parent_id"] is None
    children = [event for event in events if event["parent_id"] == proposal["msg_id"]]
    assert {event["receiver"] for event in children} >= {"board", "white-pawn-e2"}


def test_every_piece_of_the_kind_is_asked_and_an_illegal_move_is_refused_on_their_replies() -> None:
    # For Nf3 both knights are asked (SAN must know whether the other could go there too); the b1
    # knight says no. Nd4 is refused because every knight said no: the direct engine's reason.
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        assert isinstance(game.propose("Nf3"), Accepted)
        refused = game.propose("Nd4")
        assert isinstance(refused, Rejected)
        after_nf3 = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
        assert refused.reason == direct_reason(after_nf3, "Nd4")
        assert isinstance(game.propose("Nc6"), Accepted)
        assert isinstance(game.propose("Nd4"), Accepted)  # the f3 knight (still called g1) says yes
    asked: dict[int | None, list[tuple[str, str | None]]] = {}
    for event in recorder.events():
        if event["kind"] == "MoveQuery" and event["sender"] == "referee":
            asked.setdefault(event["ply"], []).append((event["receiver"], event["reply"]))
    assert sorted(asked[1]) == [("white-knight-b1", "No"), ("white-knight-g1", "Yes")]
    # ply 2: the refused Nd4 (both knights say no), then Nc6
    assert sorted(asked[2]) == sorted([("black-knight-b8", "No"), ("black-knight-g8", "No"),
                                       ("black-knight-b8", "Yes"), ("black-knight-g8", "No")])
    assert sorted(asked[3]) == [("white-knight-b1", "No"), ("white-knight-g1", "Yes")]


def _actor_threads() -> int:
    return sum(1 for thread in threading.enumerate() if "Actor" in thread.name)


def test_fifty_games_at_once_finish_without_deadlock() -> None:
    baseline = _actor_threads()
    results: list[str] = []
    errors: list[BaseException] = []

    def play() -> None:
        try:
            with ActorGame(timeout=30.0) as game:
                for move in OPERA:
                    game.propose(move)
                results.append(game.fen())
        except BaseException as error:  # reported below, with the thread's error
            errors.append(error)

    threads = [threading.Thread(target=play) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "some game never finished (deadlock?)"
    assert not errors, errors[:3]
    assert len(set(results)) == 1 and len(results) == 50
    deadline = time.monotonic() + 5
    while _actor_threads() > baseline and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _actor_threads() == baseline
