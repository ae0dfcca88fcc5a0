"""Every fact a verdict uses is a reply in that ply or a declaration its owner sent when it changed.

Each test is a sequence of public calls that, with a copy of a piece's reach kept by someone other
than the piece, or a rule read off a piece's kind rather than its answers, once ended in a wrong
verdict, and sometimes in a captured king.
"""

from __future__ import annotations

from contextlib import suppress

from actors.game.game import ActorGame
from actors.kernel.control import Ping
from actors.kernel.errors import ActorFailure
from actors.protocol import Accepted, Learn, Rejected
from board.rules.geometry import Geometry, Path, geometry_named, standard
from board.rules.pieces import KNIGHT, ROOK
from tests.helpers.support import accepted, rejected


def test_a_piece_taught_by_a_raw_learn_declares_its_reach_itself() -> None:
    # Nobody relays the lesson to the board: the bishop says it reaches the c-file, so Kc8 is refused.
    with ActorGame("3k4/8/8/8/8/8/8/2B1K3 b - - 0 1") as game:
        game.ask("white-bishop-c1", Learn(standard(ROOK)))
        reason = rejected(game, "Kc8").reason
        assert "c8" in reason and "c1" in reason, reason
        accepted(game, "Ke8")
        assert game.legal_targets("c1")[:2] == ("a1", "b1")


def test_a_rule_whose_answers_change_is_asked_every_time_it_matters() -> None:
    # Not marked as a fixed table: the piece says "ask me", and the board asks before each report.
    reaching = {"on": False}

    def moves(colour: int, start: tuple[int, int], end: tuple[int, int]) -> Path | None:
        if reaching["on"] and start[0] == end[0] and start != end:
            return Path(end, tuple((start[0], rank) for rank in range(start[1] + 1, end[1])))
        return None

    with ActorGame("3k4/8/8/8/8/8/8/2B1K3 b - - 0 1") as game:
        game.piece("c1").learn(Geometry("switch", moves))
        accepted(game, "Kc8")
        accepted(game, "Kd1")
        reaching["on"] = True  # the piece's answers change, and no one is told
        reply = game.propose("Kc7")
        assert isinstance(reply, Rejected) and "c1" in reply.reason, reply
        accepted(game, "Kd7")


def test_a_side_that_can_move_by_a_lesson_is_not_stalemated() -> None:
    # The knight was taught to stand still, then (raw) to move as a knight again: Qc7 is no stalemate.
    with ActorGame("k7/8/1K6/8/8/8/8/2Q4n w - - 0 1") as game:
        game.piece("h1").learn(lambda start, end: None)
        game.ask("black-knight-h1", Learn(standard(KNIGHT)))
        assert accepted(game, "Qc7").outcome is None
        accepted(game, "Nf2")


def test_a_side_whose_only_mover_forgot_how_is_stalemated_by_the_piece_word() -> None:
    with ActorGame("k7/8/1K6/8/8/8/8/2Q4n w - - 0 1") as game:
        game.ask("black-knight-h1", Learn(geometry_named("camel")))  # h1 -> g4, e2: both free
        game.ask("black-knight-h1", Learn(Geometry("still", lambda colour, start, end: None)))
        assert accepted(game, "Qc7").outcome == "stalemate"


def test_castling_is_judged_on_the_position_it_makes() -> None:
    # The black rook's taught line to g1 runs through h1: blocked by the white rook before castling,
    # open after it. O-O would put the king on an attacked square.
    def down_the_h_file_to_g1(start: tuple[int, int], end: tuple[int, int]) -> object:
        if start == (8, 8) and end == (7, 1):
            return ("g1", ["h7", "h6", "h5", "h4", "h3", "h2", "h1"])
        return None

    with ActorGame("4k2r/8/8/8/8/8/8/4K2R w K - 0 1") as game:
        game.piece("h8").learn(down_the_h_file_to_g1)
        reason = rejected(game, "O-O").reason
        assert "g1" in reason and "h8" in reason, reason
        assert "g1" not in game.legal_targets("e1")


def test_castling_needs_the_board_to_report_king_and_rook() -> None:
    with ActorGame("4k3/8/8/8/8/8/8/4K2R w K - 0 1") as game:
        game.board_lies(hidden=["h1"])
        assert "rook on h1" in rejected(game, "O-O").reason
        assert "g1" not in game.legal_targets("e1")
        game.board_lies()
        assert "g1" in game.legal_targets("e1")
        assert accepted(game, "O-O").san == "O-O"


def test_a_pawn_promotes_only_on_its_own_last_rank() -> None:
    with ActorGame("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1") as game:
        game.piece("b2").learn("mann")
        assert isinstance(game.propose_squares("b2", "a1", promotion=5), Rejected)
        moved = game.propose_squares("b2", "a1")
        assert isinstance(moved, Accepted), moved
        assert game.fen().startswith("4k3/8/8/8/8/8/8/P3K3 b")


def test_only_a_pawns_own_two_step_opens_en_passant() -> None:
    # Back two squares as a rook is no two-step: the d4 pawn may not take "en passant" on e3.
    with ActorGame("4k3/8/8/8/3pP3/8/8/4K3 w - - 0 1") as game:
        game.piece("e4").learn("rook")
        assert isinstance(game.propose_squares("e4", "e2"), Accepted)
        assert game.fen().split()[3] == "-"
        rejected(game, "dxe3")
    with ActorGame("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1") as game:
        accepted(game, "e4")
        assert game.fen().split()[3] == "e3"
        accepted(game, "dxe3")


def test_san_of_a_taught_pawn_reads_back_to_the_same_move() -> None:
    with ActorGame() as game:
        game.piece("e2").learn("knight")
        played = game.propose_squares("e2", "d4")
        assert isinstance(played, Accepted) and played.san == "Pe2d4", played
    with ActorGame() as game:
        game.piece("e2").learn("knight")
        again = accepted(game, "Pe2d4")
        assert again.uci == "e2d4"
        assert game.fen().split()[0] == "rnbqkbnr/pppppppp/8/8/3P4/8/PPPP1PPP/RNBQKBNR"


def test_a_knight_that_moves_as_a_queen_is_material_and_gives_check() -> None:
    with ActorGame("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1") as game:
        assert game.outcome == "insufficient_material"
    with ActorGame("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1") as game:
        game.piece("g1").learn("queen")
        assert game.outcome is None
        assert accepted(game, "Ng6").check


def test_positions_repeat_only_with_the_same_move_functions() -> None:
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    with ActorGame() as game:
        for move in shuffle:
            accepted(game, move)
        game.ask("white-queen-d1", Learn(geometry_named("amazon")))
        for move in shuffle:
            accepted(game, move)
        assert "threefold_repetition" not in game.claimable
    with ActorGame() as game:
        for move in shuffle * 2:
            accepted(game, move)
        assert "threefold_repetition" in game.claimable


def test_a_healed_promoted_pawn_moves_as_its_new_kind_not_its_old_lesson() -> None:
    with ActorGame("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") as game:
        game.piece("b7").learn("mann")  # a king's steps: b7 -> b8 is still one, and it promotes
        accepted(game, "b8=Q")
        game.crash("white-pawn-b7")
        accepted(game, "Kd7")
        assert "b1" in game.legal_targets("b8")  # a queen's file, not a mann's single steps
        assert game.supervisor.restarts >= 1


def test_a_king_is_never_captured_even_when_the_board_hides_it() -> None:
    with ActorGame("4k3/8/8/8/8/8/8/r2RK3 w - - 0 1") as game:
        game.board_lies(hidden=["e1"])
        accepted(game, "Rd2")  # with no white king reported, nothing pins the rook
        game.board_lies()
        reason = rejected(game, "Rxe1").reason
        assert "king" in reason, reason
        assert game.fen().split()[0] == "4k3/8/8/8/8/8/3R4/r3K3"


def test_a_taught_king_moving_to_a_castling_square_makes_its_own_move_when_castling_is_refused() -> None:
    with ActorGame("4k3/PPP5/8/8/8/8/5ppp/3K4 b - - 0 1") as game:
        game.piece("e8").learn("amazon")  # no rights, no rook: e8h8 is a queen's move along the rank
        moved = game.propose_squares("e8", "h8")
        assert isinstance(moved, Accepted) and moved.san == "Kh8", moved
    with ActorGame("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1") as game:
        assert game.propose_squares("e8", "h8").san == "O-O"  # type: ignore[union-attr]


def test_taking_a_king_is_no_way_out_of_mate() -> None:
    # The white king learns (raw) to jump as a chancellor and checks h8; the black knight, taught to
    # move as an archbishop, reaches g6 along the diagonal, but that square holds a king: mate.
    with ActorGame("7k/5Q2/6K1/8/8/8/8/n7 b - - 0 1") as game:
        accepted(game, "Nc2")
        accepted(game, "Qb7")
        game.ask("white-king-g6", Learn(geometry_named("chancellor")))
        game.piece("c2").learn("archbishop")
        assert game.outcome == "checkmate"
        assert isinstance(game.propose_squares("c2", "g6"), Rejected)


def test_en_passant_through_a_square_the_board_reports_taken_is_no_capture() -> None:
    # After b2-b4 the a4 pawn may take on b3; once the board reports a piece on b3, a heal that
    # assesses the position again finds no en passant capture there.
    with ActorGame("4k3/8/8/8/p7/8/1P6/4K3 w - - 0 1") as game:
        accepted(game, "b4")
        assert game.fen().split()[3] == "b3"
        game.board_lies(ghosts={"b3": "p"})
        assert "b3" not in game.legal_targets("a4")
        game.crash("white-pawn-b2")
        with suppress(ActorFailure):
            game.ask("white-pawn-b2", Ping())  # answered only if the crash has not struck yet
        game.supervisor.heal()
        assert game.fen().split()[3] == "-"


def test_a_position_repeats_as_the_board_holds_it_whatever_a_lie_made_it_report() -> None:
    # Its first occurrence was played while the board reported a bishop on a4 that is not there:
    # the third is still the third (a claimable draw), as the FEN, the board's holding, says.
    with ActorGame("7k/8/8/8/8/8/8/KN6 w - - 0 1") as game:
        game.board_lies(ghosts={"a4": "b"})
        game.ask("white-knight-b1", Learn(geometry_named("pawn")))  # raw: it moves as a pawn now
        assert isinstance(game.propose_squares("b1", "b2"), Accepted)
        first = accepted(game, "h8g7")
        assert first.claimable == ()
        game.board_lies()
        for move in ("a1b1", "g7h7", "b1a1", "h7g7", "a1a2", "g7h8", "a2a1"):
            assert accepted(game, move).claimable == ()
        assert accepted(game, "h8g7").claimable == ("threefold_repetition",)
