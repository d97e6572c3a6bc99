"""The parts of `bench/reliability.py`: each runs `mem` as users and agents do and returns rows."""
