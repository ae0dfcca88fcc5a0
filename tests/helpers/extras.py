"""Tests that need an optional extra skip without it, with a reason that names the extra to install;
with CHESS_ACTORS_EXTRAS=required (CI installs every extra) such a skip fails the run (tests/conftest.py).
"""

from __future__ import annotations

import importlib.util
import os
import re
from types import ModuleType

import pytest

EXTRA_OF = {
    "ray": "cluster",
    "websockets": "studio",
    "mkdocs": "docs",
    "pyffish": "test",
    "pexpect": "test",
    "jsonschema": "test",
}
"""The extra of pyproject.toml that installs each optional module the tests use."""

REQUIRED = os.environ.get("CHESS_ACTORS_EXTRAS") == "required"
"""Every extra is installed here (CI): a test skipped for a missing one is a failure of the run."""

_MISSING_EXTRA = re.compile(r"install the (\w+) extra")


def missing_extra_reason(module: str) -> str:
    """The reason a test that needs ``module`` skips without it: what is missing and how to install it."""
    top = module.partition(".")[0]
    extra = EXTRA_OF[top]
    return f"{top} is not installed: install the {extra} extra (pip install -e '.[{extra}]')"


def import_or_skip(module: str) -> ModuleType:
    """``module`` imported, or the test (a module's tests, at module level) skipped for its extra."""
    return pytest.importorskip(module, reason=missing_extra_reason(module))


def needs(module: str) -> pytest.MarkDecorator:
    """A mark that skips a test (``pytestmark``: a module's tests) when ``module`` is not installed,
    without importing it: Ray reads how to listen when it is first imported, in the process that runs
    the command under test rather than in this one."""
    return pytest.mark.skipif(importlib.util.find_spec(module) is None, reason=missing_extra_reason(module))


def skipped_for_a_missing_extra(reason: str) -> bool:
    """Whether a skip's reason is one of :func:`missing_extra_reason`'s."""
    return _MISSING_EXTRA.search(reason) is not None
