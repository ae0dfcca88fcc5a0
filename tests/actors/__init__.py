"""Tests of the chess actors: pieces, board and referee judging games, lessons, lies, messages."""
