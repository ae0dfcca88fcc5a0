"""The protocol: every message the actors exchange, grouped by the role that receives it.

Read this package to know the whole conversation without opening an actor.
"""
