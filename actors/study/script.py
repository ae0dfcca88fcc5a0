"""Scenario scripts: one step a line that plays moves, talks to actors and checks what they answer.

:func:`parse_scenario` reads a script into the steps of :mod:`actors.study.steps` (a malformed one
raises :class:`~actors.study.steps.ScenarioError` naming the line);
:func:`run_scenario` plays it against an ActorGame. The format is in actors/examples/README.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from actors.game.stall import check_stall
from actors.kernel.links import LinkModel, parse_network
from actors.protocol import REQUEST_KINDS
from actors.study.steps import (
    DIRECTIVE_NAMES,
    ORDER_FAULTS,
    OUTCOMES,
    ROLES,
    SCHEDULES,
    STEP_NAMES,
    Crash,
    Expect,
    FenCheck,
    Invariants,
    Learn,
    Legal,
    Lie,
    LinkFault,
    MessageFault,
    Order,
    OrderEntry,
    OutcomeCheck,
    Partition,
    Play,
    Reject,
    Restarts,
    RoleFile,
    Scenario,
    ScenarioError,
    Send,
    SquareCheck,
    Stall,
    Start,
    Step,
)
from board.errors import InputError
from board.notation.fen import parse_fen, write_fen
from board.notation.san_syntax import parse_san, parse_uci
from board.numbers import whole_number
from board.rules.chess960 import start_fen
from board.rules.geometry import geometry_named
from board.rules.pieces import COLOUR_NAMES, KIND_LETTERS, KIND_NAMES
from board.rules.position import Position
from board.rules.squares import SQUARE_NAMES, parse_standard_square

__all__ = ["MESSAGE_KINDS", "is_move_text", "parse_line", "parse_order", "parse_scenario", "read_scenario"]

# --- parsing --------------------------------------------------------------------------------

# A double-quoted word (with \" and \\ escapes) or a run of non-blank characters.
_WORD_RE = re.compile(r'"((?:[^"\\]|\\.)*)"|"|(\S+)')
_ESCAPE_RE = re.compile(r"\\(.)")


@dataclass(frozen=True, slots=True)
class _Word:
    text: str
    quoted: bool


def _words(text: str, source: str, line: int) -> list[_Word]:
    """Split a line into words; a word that starts with ``#`` (unquoted) starts a comment."""
    words: list[_Word] = []
    for match in _WORD_RE.finditer(text):
        quoted, plain = match.group(1), match.group(2)
        if quoted is not None:
            words.append(_Word(_ESCAPE_RE.sub(r"\1", quoted), True))
        elif plain is None:
            raise ScenarioError(source, line, "a quoted text is never closed (no matching '\"')")
        elif plain.startswith("#"):
            break
        else:
            if '"' in plain:
                problem = f"a quote inside the word {plain!r}: put spaces around quoted text"
                raise ScenarioError(source, line, problem)
            words.append(_Word(plain, False))
    return words


def quoted(text: str) -> str:
    """``text`` as the grammar writes quoted text: in double quotes, a quote or a backslash in it
    escaped with a backslash, so that reading it back gives ``text`` again."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _written(words: Sequence[_Word]) -> str:
    """A line's words as the grammar writes them (a saved session's line reads back the same)."""
    return " ".join(quoted(word.text) if word.quoted else word.text for word in words)


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Parse a scenario script (see actors/examples/README.md for the format).

    Args:
        text: the whole script.
        source: how error messages name the script (a path, ``<stdin>``).

    Returns:
        The scenario: its source, the position it starts from and its steps in order.

    Raises:
        ScenarioError: naming ``source`` and the line: an unknown step, a missing or extra word,
            a malformed square, FEN, count or name, ``start`` after other steps, ``expect``
            with no ``send`` before it, ``schedule`` or ``network`` after a step (``start`` aside)
            or given twice, a malformed network model, or ``order`` with no step after it.
    """
    steps: list[Step] = []
    start_fen = write_fen(parse_fen("startpos"))
    chess960 = False
    sent = False
    schedule: str | None = None
    network: LinkModel | None = None
    orders: list[tuple[int, Order]] = []
    roles: list[RoleFile] = []
    pending: Order | None = None  # an order line waiting for its step
    # Lines end at a line feed only: a quoted text may hold any other character (a form feed,
    # U+2028), as a line typed into the shell may, and a saved session must read back alike.
    for number, raw in enumerate(text.split("\n"), start=1):
        raw = raw.removesuffix("\r")
        words = _words(raw, source, number)
        if not words:
            continue
        written = _written(words)
        if words[0].text in DIRECTIVE_NAMES and not words[0].quoted:
            if pending is not None:
                raise ScenarioError(source, number, f"order (line {pending.line}) needs a step after it,"
                                                    " before another order, schedule or network line")
            name = words[0].text
            if name == "role":
                if any(not isinstance(step, Start) for step in steps):
                    raise ScenarioError(source, number, "role comes at the top (after start only)")
                role = _parse_role(words[1:], source, number)
                if any(given.role == role.role for given in roles):
                    raise ScenarioError(source, number, f"the {role.role} role is given twice")
                roles.append(role)
            elif name in ("schedule", "network"):
                given = schedule if name == "schedule" else network
                if given is not None or any(not isinstance(step, Start) for step in steps):
                    raise ScenarioError(source, number, f"{name} comes once, at the top (after start only)")
                if name == "schedule":
                    schedule = _parse_schedule(words[1:], source, number)
                else:
                    network = _parse_network(words[1:], source, number)
            else:
                pending = parse_order(words, written, source, number)
                schedule = schedule or "fifo"  # an order is one of a turnstile's schedules
            continue
        step = _parse_step(words, written, source, number)
        if pending is not None:
            if isinstance(step, Start):
                raise ScenarioError(source, number, f"order (line {pending.line}) cannot come before start")
            orders.append((len(steps), pending))
            pending = None
        if isinstance(step, Start):
            if steps:
                raise ScenarioError(source, number, "start must be the first step of a scenario")
            start_fen, chess960 = step.fen, step.chess960
        if isinstance(step, Send):
            sent = True
        if isinstance(step, Expect) and not sent:
            problem = "expect checks the reply of a send, and no send comes before it"
            raise ScenarioError(source, number, problem)
        steps.append(step)
    if pending is not None:
        raise ScenarioError(source, pending.line, "order needs a step after it (the step whose deliveries"
                                                  " it orders)")
    return Scenario(source, start_fen, tuple(steps), chess960, schedule, tuple(orders), network, tuple(roles))


def _parse_role(rest: list[_Word], source: str, line: int) -> RoleFile:
    if len(rest) not in (2, 3) or rest[0].text not in ROLES:
        raise ScenarioError(source, line, f"role needs {'|'.join(ROLES)}, a Python file and maybe a class:"
                                          " role piece my_piece.py")
    return RoleFile(line, rest[0].text, rest[1].text, rest[2].text if len(rest) == 3 else None)


def _parse_schedule(rest: list[_Word], source: str, line: int) -> str:
    if len(rest) != 1 or rest[0].quoted or rest[0].text not in SCHEDULES:
        raise ScenarioError(source, line, f"schedule needs {' or '.join(SCHEDULES)} (every delivery one at a"
                                          " time, in arrival order)")
    return rest[0].text


def _parse_network(rest: list[_Word], source: str, line: int) -> LinkModel:
    if not rest or any(word.quoted for word in rest):
        raise ScenarioError(source, line, "network needs the links' model, as --network takes it: network"
                                          " loss=0.05,dup=0.05,seed=1")
    try:
        return parse_network(" ".join(word.text for word in rest))
    except InputError as error:
        raise ScenarioError(source, line, str(error)) from None


def parse_order(words: Sequence[_Word] | str, written: str = "", source: str = "<shell>",
                line: int = 1) -> Order:
    """An ``order`` line: actor names, one a delivery, each maybe after ``drop`` or ``duplicate``.

    Args:
        words: the line's words (its text, from the shell), ``order`` first.
        written: the line as written (from the words when empty).
        source: how an error names the script.
        line: the line's number.

    Raises:
        ScenarioError: no names, a word that is not an actor's name, or a fault with no name after it.
    """
    if isinstance(words, str):
        words = _words(words, source, line)
    written = written or " ".join(word.text for word in words)
    usage = "order needs actor names, each maybe after drop or duplicate: order referee drop board board"
    entries: list[OrderEntry] = []
    fault: str | None = None
    for word in words[1:]:
        if word.text in ORDER_FAULTS and not word.quoted:
            if fault is not None:
                raise ScenarioError(source, line, f"{usage} ({fault} {word.text}: one fault, then a name)")
            fault = word.text
            continue
        try:
            actor = _actor(word, lambda problem: ScenarioError(source, line, problem))
        except ScenarioError as error:
            raise ScenarioError(source, line, f"order: {error.problem}") from None
        entries.append(OrderEntry(actor, fault))
        fault = None
    if fault is not None or not entries:
        raise ScenarioError(source, line, usage)
    return Order(line, written, tuple(entries))


def parse_line(text: str, source: str = "<shell>", line: int = 1) -> Step | None:
    """One line of the grammar (a script's line, or a shell command): its step, None if blank.

    Raises:
        ScenarioError: as :func:`parse_scenario`, for this line.
    """
    words = _words(text, source, line)
    if not words:
        return None
    written = _written(words)
    return _parse_step(words, written, source, line)


def _parse_step(words: list[_Word], written: str, source: str, line: int) -> Step:
    verb, rest = words[0].text, words[1:]

    def fail(problem: str) -> ScenarioError:
        return ScenarioError(source, line, problem)

    def plain(word: _Word, what: str) -> str:
        if word.quoted:
            raise fail(f"{verb}: {what} is a word, not quoted text")
        return word.text

    def square(word: _Word) -> str:
        text = plain(word, "a square")
        try:
            return SQUARE_NAMES[parse_standard_square(text)]
        except InputError as error:
            raise fail(f"{verb}: {error}") from None

    def position(parts: Sequence[_Word], chess960: bool | None = None) -> Position:
        """The position a FEN names; ``chess960`` as for parse_fen (None: a castling field that
        standard chess refuses is Chess960's X-FEN)."""
        if not parts:
            raise fail(f"{verb} needs a position: startpos or a FEN")
        text = " ".join(plain(part, "a FEN field") for part in parts)
        try:
            return parse_fen(text, chess960=chess960)
        except InputError as error:
            raise fail(f"{verb}: {error}") from None

    def quoted_text(parts: Sequence[_Word], usage: str) -> str | None:
        if not parts:
            return None
        if len(parts) > 1 or not parts[0].quoted:
            raise fail(f"{verb}: the reason to look for goes in double quotes, e.g. {usage}")
        return parts[0].text

    match verb:
        case "start" if rest and not rest[0].quoted and rest[0].text == "chess960":
            return _parse_chess960_start(rest[1:], written, line, fail, position)
        case "start":
            start = position(rest)
            return Start(line, written, write_fen(start), start.castling_table.chess960)
        case "fen":
            return FenCheck(line, written, write_fen(position(rest)))
        case "play":
            if len(rest) == 3 and not rest[1].quoted and rest[1].text == "as":
                return Play(line, written, plain(rest[0], "a move"), plain(rest[2], "a SAN"))
            if len(rest) != 1:
                raise fail("play needs exactly one move, and maybe the SAN it is written as:"
                           " play e4, play g1f3 as Nf3")
            return Play(line, written, plain(rest[0], "a move"))
        case "reject":
            if not rest:
                raise fail('reject needs a move, e.g. reject Ke2 "check"')
            usage = 'reject Ke2 "check"'
            return Reject(line, written, plain(rest[0], "a move"), quoted_text(rest[1:], usage))
        case "send":
            if len(rest) not in (4, 5) or plain(rest[1], "the message") != "move":
                raise fail("send needs an actor, 'move' and two squares: send white-bishop-f1 move f1 c4")
            colour = _colour(plain(rest[4], "a colour"), fail) if len(rest) == 5 else None
            return Send(line, written, _actor(rest[0], fail), square(rest[2]), square(rest[3]), colour)
        case "expect":
            return _parse_expect(rest, written, line, fail, square)
        case "learn":
            if len(rest) != 2:
                raise fail("learn needs a square and a geometry, e.g. learn c1 archbishop")
            name = plain(rest[1], "a geometry")
            try:
                geometry_named(name)
            except InputError as error:
                raise fail(f"learn: {error}") from None
            return Learn(line, written, square(rest[0]), name)
        case "drop" | "duplicate" | "crash" if len(rest) > 1 and rest[1].text == "->":
            return _parse_message_fault(verb, rest, written, line, fail)
        case "invariants":
            if rest:
                raise fail("invariants takes nothing more")
            return Invariants(line, written)
        case "crash":
            if len(rest) not in (1, 3) or (len(rest) == 3 and plain(rest[1], "'on'") != "on"):
                raise fail("crash needs an actor, and optionally on <MessageKind>: crash board on Survey")
            kind = _message_kind(plain(rest[2], "a message kind"), fail) if len(rest) == 3 else None
            return Crash(line, written, _actor(rest[0], fail), kind)
        case "stall":
            return _parse_stall(rest, written, line, fail)
        case "drop" | "duplicate" | "delay" | "reorder":
            return _parse_link_fault(verb, rest, written, line, fail)
        case "partition":
            return _parse_partition(rest, written, line, fail)
        case "lie":
            return _parse_lie(rest, written, line, fail, square)
        case "restarts":
            if len(rest) != 1 or not rest[0].text.isdigit() or rest[0].quoted:
                raise fail("restarts needs a count, e.g. restarts 1")
            return Restarts(line, written, int(rest[0].text))
        case "square":
            return _parse_square(rest, written, line, fail, square)
        case "legal":
            if not rest:
                raise fail("legal needs a square, then its legal targets (none: it cannot move)")
            return Legal(line, written, square(rest[0]), tuple(sorted(square(word) for word in rest[1:])))
        case "outcome":
            if len(rest) != 1 or rest[0].text not in OUTCOMES:
                raise fail(f"outcome needs one of {', '.join(OUTCOMES)}")
            return OutcomeCheck(line, written, None if rest[0].text == "none" else rest[0].text)
        case _ if len(words) == 1 and not words[0].quoted and is_move_text(verb):
            return Play(line, written, verb)  # a bare move: play it
        case _:
            raise fail(f"unknown step {verb!r} (steps: a move, {', '.join(STEP_NAMES)})")


def is_move_text(text: str) -> bool:
    """Whether ``text`` is written as a move, in SAN (``Nc6``, ``O-O``, ``e8=Q``) or UCI (``e2e4``)."""
    for parse in (parse_san, parse_uci):
        try:
            parse(text)
        except InputError:
            continue
        return True
    return False


def _parse_chess960_start(rest: list[_Word], written: str, line: int, fail: Callable[[str], ScenarioError],
                          position: Callable[[Sequence[_Word], bool | None], Position]) -> Start:
    """``start chess960 <N>`` (a start position by its number, 0-959) or ``start chess960 <FEN>``
    (K and Q in the FEN's castling field are X-FEN: the outermost rook on that side)."""
    if not rest:
        raise fail("start chess960 needs a start position's number (0-959) or a FEN: start chess960 518")
    if len(rest) == 1 and not rest[0].quoted and rest[0].text.isascii() and rest[0].text.isdigit():
        try:
            return Start(line, written, start_fen(whole_number(rest[0].text, "a Chess960 position number")),
                         True)
        except InputError as error:
            raise fail(f"start chess960: {error}") from None
    return Start(line, written, write_fen(position(rest, True)), True)


TARGET_RULES = ("any", "empty", "enemy")
"""What a Yes may say of its target: anything, empty (a pawn's push) or an enemy (a pawn's capture)."""


def _parse_expect(rest: list[_Word], written: str, line: int, fail: Callable[[str], ScenarioError],
                  square: Callable[[_Word], str]) -> Expect:
    answer = rest[0].text if rest and not rest[0].quoted else ""
    if answer == "yes":
        rule = None
        if len(rest) >= 3 and rest[-2].text == "rule" and not rest[-2].quoted:
            rule = rest[-1].text
            if rule not in TARGET_RULES:
                raise fail(f"expect yes ... rule takes {', '.join(TARGET_RULES)}, not {rule!r}")
            rest = rest[:-2]
        if len(rest) == 1:
            return Expect(line, written, True, None, None, rule)
        if rest[1].quoted or rest[1].text != "traversed":
            raise fail("expect yes takes nothing more, or traversed and squares, then maybe a rule:"
                       " expect yes traversed e2 d3 rule any")
        return Expect(line, written, True, tuple(square(word) for word in rest[2:]), None, rule)
    if answer == "no":
        if len(rest) > 2 or (len(rest) == 2 and not rest[1].quoted):
            raise fail('expect no takes nothing more, or a reason to look for in quotes: expect no "knight"')
        return Expect(line, written, False, None, rest[1].text if len(rest) == 2 else None)
    raise fail("expect needs yes or no, e.g. expect yes traversed e2 d3")


def _parse_stall(rest: list[_Word], written: str, line: int, fail: Callable[[str], ScenarioError]) -> Stall:
    if len(rest) not in (1, 2):
        raise fail("stall needs an actor, and optionally seconds: stall white-knight-g1 12")
    seconds = None
    if len(rest) == 2:
        try:
            seconds = float(rest[1].text)
        except ValueError:
            raise fail(f"stall: {rest[1].text!r} is not a number of seconds, e.g. stall board 12") from None
        try:
            check_stall(seconds)
        except InputError as error:
            raise fail(f"stall: {error}") from None
    return Stall(line, written, _actor(rest[0], fail), seconds)


def _parse_link_fault(verb: str, rest: list[_Word], written: str, line: int,
                      fail: Callable[[str], ScenarioError]) -> LinkFault:
    texts = [word.text for word in rest]
    reply = texts[1:3] == ["reply", "to"]
    if len(texts) != (4 if reply else 2) or texts[0] != "next":
        raise fail(f"{verb} needs next and a message kind: {verb} next Apply, or {verb} next reply to Apply")
    return LinkFault(line, written, verb, _message_kind(texts[-1], fail), reply)


PARTITION_SECONDS = 0.3
"""The longest partition a step may ask for. The links send a message again 12 times, backing off
(about 0.4 s in all), so a partition of 0.3 s is bridged by the retries, the game going on with the
same verdicts; a link still broken after its retries fails the game at once with a named
LinkFailure (the network model's ``partition=...:SECONDS`` of ``--network`` is not bounded so:
there a failure is what is studied)."""


_NAMED_RE = re.compile(r"([A-Za-z]+)\[(\d+)\]")


def _parse_message_fault(verb: str, rest: list[_Word], written: str, line: int,
                         fail: Callable[[str], ScenarioError]) -> MessageFault:
    texts = [word.text for word in rest]
    reply = texts[3:5] == ["reply", "to"]
    named = _NAMED_RE.fullmatch(texts[-1])
    if len(texts) != (6 if reply else 4) or any(word.quoted for word in rest) or named is None:
        raise fail(f"{verb} needs a message named by sender, receiver, kind and index: {verb} referee ->"
                   " board Apply[0], or drop board -> referee reply to Apply[0]")
    if verb == "crash" and reply:
        raise fail("crash: a reply is handled by no one; crash an actor on an ask or a tell")
    for name in (texts[0], texts[2]):
        if not _ACTOR_RE.fullmatch(name):
            raise fail(f"{verb}: {name!r} is not an actor's name (client, referee, white-knight-g1, ...)")
    return MessageFault(line, written, verb, texts[0], texts[2], reply, _message_kind(named[1], fail),
                        int(named[2]))


def _parse_partition(rest: list[_Word], written: str, line: int,
                     fail: Callable[[str], ScenarioError]) -> Partition:
    if len(rest) not in (2, 3):
        raise fail("partition needs actors and seconds: partition board 0.5, partition board+referee 0.5,"
                   " or two sides: partition node-1 node-2 0.5")
    sides = [tuple(_actor(_Word(name, False), fail) for name in word.text.split("+")) for word in rest[:-1]]
    try:
        seconds = float(rest[-1].text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= PARTITION_SECONDS:
        raise fail(f"partition: {rest[-1].text!r} is not a number of seconds from 0 to {PARTITION_SECONDS:g} "
                   "(a longer one outlasts what the links' retries and the supervisor's healing bridge)")
    apart = sides[1] if len(sides) == 2 else ()
    if set(sides[0]) & set(apart):
        raise fail(f"partition: {', '.join(sorted(set(sides[0]) & set(apart)))} cannot be on both sides")
    return Partition(line, written, sides[0], seconds, apart)


def _parse_lie(rest: list[_Word], written: str, line: int, fail: Callable[[str], ScenarioError],
               square: Callable[[_Word], str]) -> Lie:
    usage = ("lie needs off, or ghost <square> <colour> <kind> and hide <square> clauses: "
             "lie ghost e3 black pawn hide d7")
    if len(rest) == 1 and rest[0].text == "off" and not rest[0].quoted:
        return Lie(line, written, (), ())
    ghosts: list[tuple[str, str]] = []
    hidden: list[str] = []
    index = 0
    while index < len(rest):
        clause = rest[index].text if not rest[index].quoted else ""
        if clause == "hide" and index + 1 < len(rest):
            hidden.append(square(rest[index + 1]))
            index += 2
        elif clause == "ghost" and index + 3 < len(rest):
            colour, kind = rest[index + 2].text, rest[index + 3].text
            if colour not in COLOUR_NAMES or kind not in KIND_NAMES[1:]:
                raise fail(f"{usage} (colours: white, black; kinds: {', '.join(KIND_NAMES[1:])})")
            letter = KIND_LETTERS[KIND_NAMES.index(kind)]
            ghosts.append((square(rest[index + 1]), letter.upper() if colour == "white" else letter.lower()))
            index += 4
        else:
            raise fail(usage)
    if not ghosts and not hidden:
        raise fail(usage)
    return Lie(line, written, tuple(ghosts), tuple(hidden))


def _parse_square(rest: list[_Word], written: str, line: int, fail: Callable[[str], ScenarioError],
                  square: Callable[[_Word], str]) -> SquareCheck:
    usage = "square needs a square, then empty or a colour and a kind: square e4 white pawn"
    if len(rest) == 2 and rest[1].text == "empty":
        return SquareCheck(line, written, square(rest[0]), None, None)
    if len(rest) not in (3, 4):
        raise fail(usage)
    colour, kind = rest[1].text, rest[2].text
    if colour not in COLOUR_NAMES or kind not in KIND_NAMES[1:]:
        raise fail(f"{usage} (colours: white, black; kinds: {', '.join(KIND_NAMES[1:])})")
    actor = _actor(rest[3], fail) if len(rest) == 4 else None
    return SquareCheck(line, written, square(rest[0]), f"{colour} {kind}", actor)


def _colour(text: str, fail: Callable[[str], ScenarioError]) -> int:
    if text not in COLOUR_NAMES:
        raise fail(f"unknown colour {text!r} (white or black)")
    return COLOUR_NAMES.index(text)


_ACTOR_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _actor(word: _Word, fail: Callable[[str], ScenarioError]) -> str:
    if word.quoted or not _ACTOR_RE.fullmatch(word.text):
        raise fail(f"{word.text!r} is not an actor: board, referee, a piece (white-knight-g1) or a square")
    return word.text


MESSAGE_KINDS = REQUEST_KINDS


def _message_kind(text: str, fail: Callable[[str], ScenarioError]) -> str:
    if text not in MESSAGE_KINDS:
        raise fail(f"unknown message kind {text!r} (an actor receives {', '.join(MESSAGE_KINDS)})")
    return text


def read_scenario(path: str) -> Scenario:
    """Read and parse the scenario file at ``path`` (OSError when it cannot be read)."""
    with open(path, encoding="utf-8") as file:
        return parse_scenario(file.read(), source=path)
