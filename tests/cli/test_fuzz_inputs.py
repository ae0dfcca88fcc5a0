"""Fuzzing every text a user can hand the project: each malformed input is one of our errors, never a crash.

PGN never raises (errors ride in the game), FEN raises FenError, SAN/UCI MoveSyntaxError, ChessMoveQ
and traces and squares their InputErrors; the actors judge garbage exactly as the direct engine does.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actors.game.game import ActorGame
from actors.game.replay import replay_with_actors
from actors.protocol import Accepted, Rejected
from actors.study.script import parse_scenario
from actors.study.steps import ScenarioError
from actors.tracing.export import parse_ply_range, read_jsonl
from board.errors import (
    AmbiguousMoveError,
    BoardSizeError,
    ChessActorsError,
    FenError,
    IllegalMoveError,
    InputError,
    MoveSyntaxError,
    PgnError,
    SquareError,
)
from board.games.game import Game
from board.games.replay import replay_direct
from board.notation.algebraic import san
from board.notation.fen import parse_fen, write_fen
from board.notation.pgn import read_games
from board.notation.san_syntax import parse_san, parse_uci
from board.puzzles.chessmoveq import (
    answer,
    is_valid_move,
    parse_json_case,
    parse_json_move,
    parse_json_position,
    parse_move,
    parse_position,
)
from board.rules.movegen import legal_moves
from board.rules.perft import perft
from board.rules.squares import file_name, file_number, parse_size, parse_square, square_colour, square_name

T = TypeVar("T")
DATA = Path(__file__).resolve().parents[1] / "data"
FAMOUS = (DATA / "famous.pgn").read_text(encoding="utf-8")
TRIED: Counter[str] = Counter()
"""Inputs tried per surface (printed at the end of the module with ``-s``)."""

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW_FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", autouse=True)
def report_counts() -> Iterator[None]:
    yield
    print("\nmalformed inputs tried per surface:", dict(sorted(TRIED.items())))


def only_raises(surface: str, allowed: type[BaseException] | tuple[type[BaseException], ...],
                call: Callable[[], T]) -> T | None:
    """Call; None when it raised one of ``allowed`` (anything else escapes and fails the test)."""
    TRIED[surface] += 1
    try:
        return call()
    except allowed:
        return None


# --- strategies ------------------------------------------------------------------------------

any_text = st.text(max_size=300)
"""Any unicode at all (surrogates excluded by hypothesis: str in Python cannot be encoded with them)."""

PGN_TOKENS = (
    '[Event "x"]', '[White "a \\"b\\""]', '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]', '[SetUp "1"]', "[Bad",
    '[Tag "unterminated', "1.", "1...", "12.", "1 .", "e4", "e5", "Nf3", "Nc6", "Bb5", "O-O", "0-0", "O-O-O",
    "exd5", "e8=Q", "e8Q", "Qxf7#", "Ke2", "Nbd7", "R1a3", "{", "}", "{a comment}", "(", ")", "(1... d5)",
    ";rest of line", "$12", "$", "!?", "??", "1-0", "0-1", "1/2-1/2", "*", "--", "Z0", "P@e4", "@", "%",
    "\n", "\n", "\n\n", " ", "\t", "\r\n", "\ufeff", "é", "\x00", "\\", '"', "[", "]", ".", "9999999.",
)
pgn_soup = st.lists(st.sampled_from(PGN_TOKENS), max_size=120).map(" ".join)


@st.composite
def mutated_famous(draw: st.DrawFn) -> str:
    """A slice of real PGN with a few characters deleted, doubled or replaced."""
    start = draw(st.integers(0, len(FAMOUS) - 1))
    text = list(FAMOUS[start:start + draw(st.integers(0, 3000))])
    for _ in range(draw(st.integers(0, 8))):
        if not text:
            break
        spot = draw(st.integers(0, len(text) - 1))
        action = draw(st.sampled_from(("delete", "double", "replace")))
        if action == "delete":
            del text[spot]
        elif action == "double":
            text.insert(spot, text[spot])
        else:
            text[spot] = draw(st.sampled_from(list('[]{}()";.\n 0123456789-=+#xOQKRBNabcdefgh!?$*/')))
    return "".join(text)


pgn_texts = st.one_of(any_text, pgn_soup, mutated_famous())

FEN_CHARS = "pnbrqkPNBRQK12345678/ x9-"
fen_rank = st.text(alphabet="pnbrqkPNBRQK12345678", min_size=0, max_size=10)


@st.composite
def fen_like(draw: st.DrawFn) -> str:
    """Six fields shaped like a FEN, each sometimes wrong."""
    ranks = draw(st.lists(fen_rank, min_size=6, max_size=9))
    fields = [
        "/".join(ranks),
        draw(st.sampled_from(("w", "b", "W", "x", ""))),
        draw(st.sampled_from(("-", "KQkq", "Kk", "kq", "QK", "KK", "x", ""))),
        draw(st.sampled_from(("-", "e3", "e6", "d6", "a1", "e9", "z3", ""))),
        str(draw(st.integers(-5, 10**12))),
        str(draw(st.integers(-5, 10**12))),
    ]
    keep = draw(st.integers(1, 7))
    return " ".join(fields[:keep])


@st.composite
def played_fen(draw: st.DrawFn) -> str:
    """The FEN after some random legal moves, sometimes with one field damaged."""
    game = random_position(draw(st.integers(0, 2**32)), draw(st.integers(0, 60)))
    fields = game.fen().split(" ")
    if draw(st.booleans()):
        spot = draw(st.integers(0, len(fields) - 1))
        fields[spot] = draw(st.text(alphabet=FEN_CHARS, max_size=12))
    return " ".join(fields)


fen_texts = st.one_of(any_text, fen_like(), played_fen())

san_like = st.from_regex(
    r"\A(?:[KQRBNPkqrbnp]?[a-j]?[0-9]?[x:-]?[a-j][0-9](?:=?[QRBNKPqrbnkp])?[+#]?[!?]{0,2}"
    r"|[O0o]-[O0o](?:-[O0o])?[+#]?|[a-i][0-9][a-i][0-9][qrbnkp]?|--|Z0|@[a-h][1-8])\Z"
)
COMMON_MOVES = ("e4", "d4", "Nf3", "c4", "e5", "d5", "Nf6", "c5", "Nc6", "Bb5", "Bc4", "O-O", "O-O-O", "exd5",
                "Qxd5", "Qh5", "Qxf7#", "a6", "Ke2", "e2e4", "g1f3", "b8c6", "e7e5")
move_texts = st.one_of(any_text, san_like, st.text(alphabet="abcdefgh12345678xKQRBNO-=+#", max_size=8))


def random_position(seed: int, plies: int) -> Game:
    """A game after ``plies`` random legal moves from the start (fewer if it ends)."""
    rng = random.Random(seed)
    game = Game()
    for _ in range(plies):
        moves = legal_moves(game.position)
        if not moves or game.ended():
            break
        game.play(san(game.position, rng.choice(moves)), want_san=False)
    return game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False, width=32)
    | st.sampled_from(("W", "B", "K", "Q", "R", "B", "N", "P", "w", "", "KK")),
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.sampled_from(("position", "move", "x")), children, max_size=3),
    max_leaves=40,
)
piece_like = st.tuples(
    st.sampled_from(("W", "B", "w", "X", 1, None)),
    st.sampled_from(("K", "Q", "R", "B", "N", "P", "k", "X", 0)),
    st.one_of(st.integers(-2, 10), st.sampled_from((1.0, True, "3", None))),
    st.one_of(st.integers(-2, 10), st.sampled_from((1.0, False, "3", None))),
).map(list)
chessmoveq_texts = st.one_of(
    any_text,
    json_values.map(json.dumps),
    st.lists(piece_like, max_size=34).map(json.dumps),
    st.fixed_dictionaries({"position": st.lists(piece_like, max_size=6), "move": piece_like}).map(json.dumps),
)


# --- PGN ---------------------------------------------------------------------------------------


@FUZZ
@given(text=pgn_texts)
def test_pgn_reading_never_raises_and_every_game_gets_a_direct_verdict(text: str) -> None:
    TRIED["pgn"] += 1
    games = list(read_games(text))
    for game in games:
        assert game.error is None or isinstance(game.error, PgnError)
        verdict = replay_direct(game)
        json.dumps(verdict.as_json())
        assert verdict.error is not None or game.error is None


@SLOW_FUZZ
@given(text=st.one_of(pgn_soup, mutated_famous()))
def test_garbled_pgn_gets_the_same_verdict_from_the_actors_as_from_the_direct_engine(text: str) -> None:
    TRIED["pgn through the actors"] += 1
    for game in list(read_games(text))[:3]:
        assert replay_with_actors(game).as_json() == replay_direct(game).as_json()


# --- FEN ---------------------------------------------------------------------------------------


@FUZZ
@given(text=fen_texts, strict=st.booleans())
def test_fen_parsing_raises_only_fen_error_and_what_parses_round_trips(text: str, strict: bool) -> None:
    position = only_raises("fen", FenError, lambda: parse_fen(text, strict=strict))
    if position is None:
        return
    written = write_fen(position)
    assert write_fen(parse_fen(written, strict=strict)) == written
    if strict:
        game = Game(written)
        assert perft(game.position, 1) == len(legal_moves(game.position))


# --- SAN and UCI -------------------------------------------------------------------------------


@FUZZ
@given(text=move_texts)
def test_san_and_uci_parsing_raise_only_move_syntax_error(text: str) -> None:
    only_raises("san", MoveSyntaxError, lambda: parse_san(text))
    only_raises("uci", MoveSyntaxError, lambda: parse_uci(text))


@FUZZ
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80), text=move_texts)
def test_playing_any_text_in_any_position_raises_only_chess_actors_errors(
    seed: int, plies: int, text: str
) -> None:
    game = random_position(seed, plies)
    before = game.fen()
    played = only_raises("Game.play", (MoveSyntaxError, IllegalMoveError), lambda: game.play(text))
    if played is None:
        assert game.fen() == before, "a refused move changed the position"


def test_the_actors_judge_any_text_exactly_as_the_direct_engine() -> None:
    # One game for every example (starting 35 actors per example would take minutes).
    with ActorGame(timeout=5.0) as actors:
        direct = Game()

        @settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(text=st.one_of(move_texts, st.just(""), st.sampled_from(COMMON_MOVES)))
        def judge(text: str) -> None:
            TRIED["propose through the actors"] += 1
            reply = actors.propose(text)
            try:
                played = direct.play(text)
            except (MoveSyntaxError, AmbiguousMoveError, IllegalMoveError) as error:
                assert isinstance(reply, Rejected), f"{text!r}: actors accepted, direct refused: {error}"
                return
            assert isinstance(reply, Accepted), f"{text!r}: actors refused ({reply}), direct played it"
            assert (reply.san, reply.check, reply.outcome) == (played.san, played.check, played.outcome)

        judge()
        assert actors.fen() == direct.fen()


# --- ChessMoveQ --------------------------------------------------------------------------------


@FUZZ
@given(text=chessmoveq_texts, zero_based=st.booleans())
def test_chessmoveq_json_raises_only_input_errors(text: str, zero_based: bool) -> None:
    pieces = only_raises("chessmoveq position", InputError, lambda: parse_json_position(text, zero_based))
    move = only_raises("chessmoveq move", InputError, lambda: parse_json_move(text, zero_based))
    only_raises("chessmoveq case", InputError, lambda: parse_json_case(text, zero_based))
    if pieces is not None and move is not None:
        result = answer(pieces, move)
        assert isinstance(result.valid, bool)


@FUZZ
@given(position=st.one_of(json_values, st.lists(piece_like, max_size=34)),
       move=st.one_of(json_values, piece_like), zero_based=st.booleans())
def test_chessmoveq_values_raise_only_input_errors_and_valid_ones_get_an_answer(
    position: Any, move: Any, zero_based: bool
) -> None:
    pieces = only_raises("chessmoveq values", InputError, lambda: parse_position(position, zero_based))
    placed = only_raises("chessmoveq values", InputError, lambda: parse_move(move, zero_based))
    TRIED["chessmoveq values"] += 1
    if pieces is None or placed is None:  # a position or a move that does not read is never judged
        with pytest.raises(InputError):
            is_valid_move(position, move, zero_based)
    else:
        assert isinstance(is_valid_move(position, move, zero_based), bool)


# --- squares and board sizes -------------------------------------------------------------------

sizes = st.one_of(st.none(), st.tuples(st.integers(1, 60), st.integers(1, 60)))
square_texts = st.one_of(any_text, st.from_regex(r"\A[a-zA-Z]{0,3}-?[0-9]{0,4}\s?\Z"))
size_texts = st.one_of(any_text, st.from_regex(r"\A-?[0-9]{0,4}(?:[xX*]-?[0-9]{0,4})?\Z"))


@FUZZ
@given(text=square_texts, size=sizes)
def test_square_names_raise_only_square_error(text: str, size: tuple[int, int] | None) -> None:
    coord = only_raises("square", SquareError, lambda: parse_square(text, size))
    if coord is not None:
        file, rank = coord
        assert file >= 1 and rank >= 1
        assert parse_square(square_name((file, rank)), None) == (file, rank)


@FUZZ
@given(text=size_texts)
def test_board_sizes_raise_only_board_size_error(text: str) -> None:
    size = only_raises("board size", BoardSizeError, lambda: parse_size(text))
    if size is not None:
        assert min(size) >= 1


@FUZZ
@given(file=st.integers(-100, 10**9), rank=st.integers(-5, 10**9))
def test_square_names_round_trip_on_any_board(file: int, rank: int) -> None:
    TRIED["square coordinates"] += 1
    if file < 1 or rank < 1:  # files and ranks count from 1: no such square has a name
        with pytest.raises(SquareError):
            square_name((file, rank))
        return
    name = square_name((file, rank))
    assert file_number(file_name(file)) == file
    assert parse_square(name, None) == (file, rank)
    assert square_colour((file, rank)) != square_colour((file + 1, rank))


# --- traces ------------------------------------------------------------------------------------

trace_lines = st.lists(
    st.one_of(any_text, json_values.map(json.dumps),
              st.fixed_dictionaries({
                  "msg_id": st.integers(-2, 5), "parent_id": st.one_of(st.none(), st.integers(-2, 5)),
                  "sender": st.sampled_from(("a", 1)), "receiver": st.just("b"), "kind": st.just("Ping"),
                  "t_sent": st.integers(-1, 9), "t_handled": st.one_of(st.integers(0, 9), st.none()),
              }).map(json.dumps)),
    max_size=6,
)


@FUZZ
@given(lines=trace_lines, binary=st.binary(max_size=40), plies=square_texts)
def test_trace_files_and_ply_ranges_raise_only_input_errors(
    lines: list[str], binary: bytes, plies: str
) -> None:
    only_raises("trace", InputError, lambda: read_jsonl(lines))
    TRIED["trace"] += 1
    # Forty bytes cannot hold the names of an event's seven required fields: a line of them that is
    # not blank is never an event.
    if _blank(binary):
        assert read_jsonl([binary]) == []
    else:
        with pytest.raises(InputError):
            read_jsonl([binary])
    bounds = only_raises("ply range", InputError, lambda: parse_ply_range(plies))
    if bounds is not None:
        first, last = bounds
        assert 1 <= first <= last


def _blank(line: bytes) -> bool:
    """A trace line the reader skips: UTF-8 text of white space only."""
    try:
        return not line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return False


# --- scenario scripts --------------------------------------------------------------------------

SCENARIO_WORDS = ("start", "startpos", "play", "reject", "send", "expect", "crash", "restarts", "square",
                  "legal", "fen", "outcome", "yes", "no", "traversed", "move", "on", "board", "referee",
                  "white-bishop-f1", "e4", "e2", "f1", "c4", "Ke2", '"check"', '"open', "none", "checkmate",
                  "1", "-1", "#", "\n", "\n", " ", "Survey", "none", "x")


def test_scenario_scripts_raise_only_scenario_errors() -> None:
    @FUZZ
    @given(text=st.one_of(any_text, st.lists(st.sampled_from(SCENARIO_WORDS), max_size=60).map(" ".join)))
    def parse(text: str) -> None:
        only_raises("scenario", ScenarioError, lambda: parse_scenario(text))

    parse()


# --- inputs that break naive parsers: each named, each checked ---------------------------------

HUGE_NUMBER = "9" * 5000  # past Python's 4300-digit limit for int(str): int() raises a bare ValueError
DEEP_JSON = "[" * 100_000


@pytest.mark.parametrize(
    ("surface", "call", "allowed"),
    [
        ("fen placement of a huge count", lambda: parse_fen(f"{HUGE_NUMBER}/8/8/8/8/8/8/8 w - - 0 1"),
         (FenError,)),
        ("pgn with a huge move number", lambda: list(read_games(f"{HUGE_NUMBER}. e4 *")), ()),
        ("pgn deep variations", lambda: list(read_games("1. e4 " + "(" * 50_000 + " *")), ()),
        ("pgn of NULs and a BOM", lambda: list(read_games("\ufeff\x00[\x00\n\x00 1. e4\x00 *")), ()),
        ("pgn of one 1 MB line", lambda: list(read_games("1. e4 " + "e5 " * 300_000)), ()),
        ("san of 100k characters", lambda: parse_san("N" * 100_000), (MoveSyntaxError,)),
        ("chessmoveq deep nesting", lambda: parse_json_position(DEEP_JSON), (InputError,)),
        ("square of letters only", lambda: parse_square("a" * 10_000, None), (SquareError,)),
        ("trace line of NULs", lambda: read_jsonl(["\x00" * 10]), (InputError,)),
        ("play a NUL", lambda: Game().play("\x00"), (ChessActorsError,)),
    ],
)
def test_known_hard_inputs_are_refused_cleanly(surface: str, call: Callable[[], object],
                                               allowed: tuple[type[BaseException], ...]) -> None:
    TRIED["known hard inputs"] += 1
    if not allowed:
        call()  # read as it is, without an error
        return
    with pytest.raises(allowed):
        call()


@pytest.mark.parametrize(
    ("surface", "call", "allowed"),
    [
        # board/rules/squares.py: int() of the rank / size digits
        ("square with a 5000-digit rank", lambda: parse_square("a" + HUGE_NUMBER, None), SquareError),
        ("board size of 5000 digits", lambda: parse_size(HUGE_NUMBER), BoardSizeError),
        # board/notation/fen.py: _parse_counter
        ("fen halfmove counter of 5000 digits", lambda: parse_fen(f"8/8/8/8/8/8/8/K6k w - - {HUGE_NUMBER} 1"),
         FenError),
        # board/puzzles/chessmoveq.py: _decode catches JSONDecodeError and RecursionError, not the digit limit
        ("chessmoveq coordinate of 5000 digits",
         lambda: parse_json_position(f'[["W", "K", {HUGE_NUMBER}, 1]]'), InputError),
        # actors/trace_export.py: read_jsonl catches JSONDecodeError only
        ("trace line nested 100k deep", lambda: read_jsonl([DEEP_JSON]), InputError),
        ("trace msg_id of 5000 digits", lambda: read_jsonl([f'{{"msg_id": {HUGE_NUMBER}}}']), InputError),
    ],
)
def test_huge_numbers_and_deep_nesting_are_refused_with_the_projects_errors(
    surface: str, call: Callable[[], object], allowed: type[BaseException]
) -> None:
    TRIED["known hard inputs"] += 1
    with pytest.raises(allowed):
        call()
