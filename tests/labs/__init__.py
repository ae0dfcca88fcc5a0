"""The labs: the lab command, and each lab's reference and seeded wrong solutions, checked."""
