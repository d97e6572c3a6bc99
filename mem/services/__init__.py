"""Use cases: each decides one thing a command asks for, and coordinates vault and index."""
