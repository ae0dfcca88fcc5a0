"""Many games and many processes: bulk replay in parallel processes, a game's actors on node processes
over Ray, and reaching a Ray cluster.
"""
