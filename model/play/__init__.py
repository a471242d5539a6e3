"""The play rulebook (``004_*`` seed): paying costs and playing a card."""
