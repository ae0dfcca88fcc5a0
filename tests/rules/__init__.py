"""Tests of the rules core: squares, move functions, positions, FEN, SAN, perft, Chess960, fairy pieces."""
