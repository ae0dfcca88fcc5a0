"""The roles: piece, board and referee actors, the supervisor and the journal it keeps.

Each role module reads top to bottom as how you talk to it, then what it does on each message.
"""
