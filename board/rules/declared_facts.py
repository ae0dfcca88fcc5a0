"""What a board reports of a position whose pieces declared their own reach: a move it was asked
about (a probe), what it sees along that move, and its assessment of the side to move.

The values that :class:`board.rules.declared.View` makes (kept apart from it: they are dataclasses, which
stay Python in the compiled build, since they cross processes).
"""

from __future__ import annotations

from dataclasses import dataclass

from board.rules.judge import Sighting

__all__ = ["Assessment", "PathEntry", "Probe", "ProbeReport", "Reach", "Sighting"]

PathEntry = tuple[int, tuple[int, ...], str]
"""One move a piece's geometry allows from where it stands: (target, traversed nearest first, target rule)."""

Reach = tuple[PathEntry, ...]
"""Every move a piece's geometry allows from its square: the piece's own word, declared to the board."""


@dataclass(frozen=True, slots=True)
class Probe:
    """A move the board is asked about: the piece on ``origin`` going to ``target`` along ``traversed``."""

    origin: int
    target: int
    traversed: tuple[int, ...] = ()
    en_passant: bool = False
    target_rule: str = "any"


@dataclass(frozen=True, slots=True)
class ProbeReport:
    """What the board sees for a probe.

    ``blocker``: the first occupied traversed square; ``target_code``: what stands on the target;
    ``exposers``: the enemy pieces whose declared reach would take them to the mover's king once the
    move is made (looked for only when the path is clear and the target is not the mover's own);
    ``king_square``: that king's square after the move (-1 when the side has no king);
    ``refused``: the board would not make the move, which would take a king (one it may hide, or,
    en passant, one it reports on the square of the pawn taken).
    """

    blocker: Sighting | None
    target_code: int
    exposers: tuple[Sighting, ...]
    king_square: int
    refused: bool = False


@dataclass(frozen=True, slots=True)
class Assessment:
    """The board's word on the side to move, from the pieces' declared reach.

    ``check``: enemy pieces whose reach takes them to the king; ``en_passant``: for each pawn able to
    capture onto the en passant square, what the capture would expose; ``open_probe``: a move with a
    clear path, a target it may take and no exposer (proof that the side can move), else ``unclear``:
    the moves that only exposers stand against; ``placement``: the 64 codes as reported, for material;
    ``lessons``: (square, label) of every piece reported whose move function is not its kind's own,
    as each piece declared it; ``held``: where the board reports other than it holds (it lies), the
    position it holds, (its 64 codes, every lesson), for repetition (None: the same as reported).
    """

    king_square: int
    check: tuple[Sighting, ...]
    en_passant: tuple[tuple[Probe, ProbeReport], ...]
    open_probe: Probe | None
    unclear: tuple[tuple[Probe, ProbeReport], ...]
    placement: bytes
    lessons: tuple[tuple[int, str], ...] = ()
    held: tuple[bytes, tuple[tuple[int, str], ...]] | None = None
