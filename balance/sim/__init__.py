"""Playing games: the one play loop, schedules, batches on a backend, and the run's files."""
