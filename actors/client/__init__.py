"""The client side: the game facade, pools of actor systems, the position-only session, replays and bulk
replays.

Clients ask actors and wait with timeouts; they never run inside an actor thread.
"""
