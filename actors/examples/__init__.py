"""The example scenario scripts shipped in the package, found by name (``chess-actors run --example pin``).

Each example is a ``NAME.scenario`` file beside this module; its opening comment says what it teaches.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files

from board.errors import InputError

__all__ = ["Example", "UnknownExampleError", "example", "examples"]

SUFFIX = ".scenario"


class UnknownExampleError(InputError):
    """No shipped example has the name asked for."""


@dataclass(frozen=True, slots=True)
class Example:
    """One shipped scenario: its name, the first sentence of its opening comment, and its text."""

    name: str
    summary: str
    text: str

    @property
    def source(self) -> str:
        """How error messages and step lines name the script (``example pin``)."""
        return f"example {self.name}"


def examples() -> list[Example]:
    """Return every shipped example, by name."""
    folder = files(__name__)
    found = [
        _load(entry.name[: -len(SUFFIX)], entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(SUFFIX)
    ]
    return sorted(found, key=lambda item: item.name)


def example(name: str) -> Example:
    """Return the shipped example called ``name`` (``pin`` or ``pin.scenario``).

    Raises:
        UnknownExampleError: there is none by that name (the message lists the names there are).
    """
    stem = name.removesuffix(SUFFIX)
    entry = files(__name__).joinpath(stem + SUFFIX)
    # A name is a plain file name: anything with a path in it could reach outside the package.
    if not stem or "/" in stem or "\\" in stem or not entry.is_file():
        names = ", ".join(item.name for item in examples())
        raise UnknownExampleError(f"no example called {name!r} (the examples: {names})")
    return _load(stem, entry.read_text(encoding="utf-8"))


def _load(name: str, text: str) -> Example:
    return Example(name, _summary(text), text)


def _summary(text: str) -> str:
    """The first sentence of the script's opening comment paragraph."""
    words: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comment = line.lstrip("#").strip()
        if not comment:
            break
        words.append(comment)
    paragraph = " ".join(words)
    sentence, stop, _ = paragraph.partition(". ")
    return sentence + "." if stop else paragraph
