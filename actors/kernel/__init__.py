"""The actor kernel: the traced actor base, sending and asking with timeouts, errors and limits.

Everything else in the actor shell is built on these few modules; they know nothing of chess.
"""
