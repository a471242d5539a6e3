"""Theorems of the play rulebook."""
