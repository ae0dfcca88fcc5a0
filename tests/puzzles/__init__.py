"""Tests of the puzzles: ChessMoveQ and the knight puzzles, against an oracle where there is one."""
