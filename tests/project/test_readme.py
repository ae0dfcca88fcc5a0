"""The examples runner: every marked example in the Markdown guides (README, the scenario format, every
page of the documentation site) is run, so none can drift from what the program does (see
tests/helpers/readme_blocks.py for the markers), and the runner itself is held to its rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.readme_blocks import Block, blocks, check, console_steps, matches, needs_marker

ROOT = Path(__file__).resolve().parents[2]
GUIDES = [ROOT / "README.md", ROOT / "actors" / "examples" / "README.md",
          *sorted((ROOT / "docs").rglob("*.md"))]
# Sections whose examples are not run yet: they describe the actor API and protocol, which are being
# reshaped; their blocks get markers when that settles.
UNMARKED_SECTIONS: set[str] = set()
MARKED = [block for guide in GUIDES for block in blocks(guide) if block.kind is not None]


def _where(block: Block) -> str:
    return f"{block.path.relative_to(ROOT)}:{block.line}"


@pytest.mark.parametrize("block", MARKED, ids=[_where(block) for block in MARKED])
def test_the_example_prints_what_the_guide_shows(block: Block, tmp_path: Path) -> None:
    problems = check(block, tmp_path)
    assert not problems, f"{_where(block)} ({block.section}) no longer matches:\n" + "\n".join(problems)


@pytest.mark.parametrize("guide", GUIDES, ids=[str(guide.relative_to(ROOT)) for guide in GUIDES])
def test_every_runnable_example_outside_the_pending_sections_is_marked(guide: Path) -> None:
    unmarked = [
        _where(block) for block in blocks(guide)
        if needs_marker(block) and block.kind is None and block.section not in UNMARKED_SECTIONS
    ]
    assert not unmarked, f"examples shown but never run: {unmarked}"


def test_the_guides_have_examples_of_every_kind() -> None:
    kinds = {block.kind for block in MARKED}
    assert kinds == {"console", "doctest", "output of"}
    assert len(MARKED) >= 10


# --- the runner's own rules -------------------------------------------------------------------


def _guide(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "GUIDE.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_line_of_dots_stands_for_any_number_of_lines() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert matches(["a  ", "..."], ["a"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"]), "output the guide does not show is a difference"
    assert not matches(["a...", "d"], ["a b", "d"]), "dots inside a line are literal"


def test_console_blocks_split_into_commands_with_their_status_and_output() -> None:
    steps = console_steps("$ echo hi\nhi\n$ false  # exit 1\n$ true")
    assert steps == [("echo hi", 0, ["hi"]), ("false  # exit 1", 1, []), ("true", 0, [])]
    with pytest.raises(ValueError, match="output before the first command"):
        console_steps("hi\n$ echo hi")


def test_a_marked_block_that_drifted_is_reported_and_a_true_one_passes(tmp_path: Path) -> None:
    guide = _guide(tmp_path, (
        "# Demo\n\n<!-- readme-test: console -->\n```console\n$ echo one; echo two\none\ntwo\n```\n\n"
        "<!-- readme-test: console -->\n```console\n$ echo one\nuno\n```\n\n"
        "<!-- readme-test: console -->\n```console\n$ echo one >&2; exit 3  # exit 3\none\n```\n\n"
        "<!-- readme-test: doctest -->\n```python\n>>> 1 + 1\n3\n```\n\n"
        "<!-- readme-test: output of printf 'x\\ny\\n' -->\n```\nx\n...\n```\n\n"
        "```console\n$ never run\n```\n"
    ))
    found = blocks(guide)
    assert [block.kind for block in found] == ["console", "console", "console", "doctest", "output of", None]
    assert all(block.section == "Demo" for block in found)
    results = [check(block, tmp_path) for block in found[:5]]
    assert [bool(problems) for problems in results] == [False, True, False, True, False]
    assert "uno" not in results[1][0] and "one" in results[1][0]
    assert "Expected:\n    3\nGot:\n    2" in results[3][0]
    assert needs_marker(found[5])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<!-- readme-test: consol -->\n```console\n$ true\n```\n", "malformed readme-test marker"),
        ("<!-- readme-test: console -->\n\n```console\n$ true\n```\n", "must come just before a block"),
        ("<!-- readme-test: console -->\n```console\n$ true\n", "never closed"),
    ],
)
def test_a_broken_marker_or_block_is_an_error_naming_its_line(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        blocks(_guide(tmp_path, text))


def test_a_page_runs_the_scenarios_kept_beside_it_in_a_directory_of_its_own(tmp_path: Path) -> None:
    pages, work = tmp_path / "pages", tmp_path / "work"
    pages.mkdir()
    work.mkdir()
    (pages / "lesson.scenario").write_text("play e4\n", encoding="utf-8")
    (pages / "notes.txt").write_text("not for the examples\n", encoding="utf-8")
    page = pages / "lesson.md"
    page.write_text(
        "# Lesson\n\n<!-- readme-test: console -->\n```console\n$ cat lesson.scenario; ls\nplay e4\n"
        "lesson.scenario\n```\n\n<!-- readme-test: doctest -->\n```python\n"
        ">>> _ = open('written.txt', 'w').write('x')\n```\n",
        encoding="utf-8",
    )
    console, doctest_block = blocks(page)
    assert check(console, work) == []
    assert check(doctest_block, work) == []
    assert (work / "written.txt").is_file(), "a doctest writes in the example's directory"
    assert not (pages / "written.txt").exists()


def test_a_block_indented_inside_a_list_item_or_a_collapsible_answer_is_found_and_run(tmp_path: Path) -> None:
    guide = _guide(tmp_path, (
        "# Questions\n\n1. What does echo print?\n\n    ??? note \"Answer\"\n\n"
        "        <!-- readme-test: console -->\n        ```console\n"
        "        $ echo hi\n        hi\n        ```\n"
    ))
    (block,) = blocks(guide)
    assert (block.kind, block.text) == ("console", "$ echo hi\nhi")
    assert check(block, tmp_path) == []
