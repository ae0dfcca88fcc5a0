"""One game through the actors: the game facade, the position-only session, moves, placements, stalls,
replays of one game at a time and the pool of actor systems a game borrows.

Clients ask actors and wait with timeouts; they never run inside an actor thread.
"""
