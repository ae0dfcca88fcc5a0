"""Studying the actors: delivery orders explored, faults searched, scenario scripts and their runner,
and the interactive shell that runs the same step grammar one line at a time.
"""
