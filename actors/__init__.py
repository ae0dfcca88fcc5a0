"""chess-actors: piece, board and referee actors (pykka) that judge chess moves by messages.

The pure rules live in :mod:`board`; this package is the actor shell and the command line.
"""
