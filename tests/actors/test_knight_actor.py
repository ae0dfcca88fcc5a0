"""A knight actor answers the knight puzzles from where it stands, by message."""

from __future__ import annotations

from actors.game.game import ActorGame
from actors.protocol import KnightWalk
from board.puzzles.knights import knight_distance
from board.rules.squares import parse_square


def _is_knight_step(first: str, second: str) -> bool:
    (f1, r1), (f2, r2) = parse_square(first, None), parse_square(second, None)
    return {abs(f1 - f2), abs(r1 - r2)} == {1, 2}


def test_a_knight_actor_answers_its_shortest_path_from_where_it_stands() -> None:
    with ActorGame() as game:
        reply = game.piece("g1").knight_path("a8")
        assert isinstance(reply, KnightWalk), reply
        assert reply.path is not None and reply.path[0] == "g1" and reply.path[-1] == "a8"
        assert reply.moves == knight_distance((7, 1), (1, 8)) == len(reply.path) - 1
        assert all(_is_knight_step(a, b) for a, b in zip(reply.path, reply.path[1:], strict=False))


def test_a_knight_that_moved_answers_from_its_new_square() -> None:
    with ActorGame() as game:
        game.propose("Nf3")
        game.propose("e5")
        reply = game.piece("f3").knight_path("h2")
        assert isinstance(reply, KnightWalk) and reply.path is not None
        assert reply.path[0] == "f3" and reply.moves == knight_distance((6, 3), (8, 2))


def test_a_knight_actor_answers_a_closed_tour_of_a_bigger_board_from_its_square() -> None:
    with ActorGame() as game:
        reply = game.piece("b1").knight_tour("10x12", closed=True)
        assert isinstance(reply, KnightWalk) and reply.path is not None
        assert reply.path[0] == "b1" and len(set(reply.path)) == 120 == reply.moves + 1
        assert all(_is_knight_step(a, b) for a, b in zip(reply.path, reply.path[1:], strict=False))
        assert _is_knight_step(reply.path[-1], reply.path[0])


def test_a_knight_actor_says_why_when_there_is_no_tour() -> None:
    with ActorGame() as game:
        reply = game.piece("b1").knight_tour("4", closed=True)
        assert isinstance(reply, KnightWalk)
        assert reply.path is None and reply.reason and "4x4" in reply.reason


def test_other_pieces_answer_no_to_knight_puzzles() -> None:
    with ActorGame() as game:
        reply = game.piece("c1").knight_path("c3")
        assert isinstance(reply, KnightWalk) and reply.moves is None
        assert "bishop answers no knight puzzles" in reply.reason
