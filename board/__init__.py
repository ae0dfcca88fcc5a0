"""The rules of chess as pure functions and values: squares, move geometry, positions, FEN,
legal moves, game end, notation, PGN, perft, and the knight puzzles. No threads, no I/O.
"""
