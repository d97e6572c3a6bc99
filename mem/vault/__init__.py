"""The vault: markdown category files, found, parsed and edited as text."""
