"""The play rulebook in the harness: codec, schema, action kinds, strategies, shrinking, comparison, vectors."""

from .rulebook import RULEBOOK

__all__ = ["RULEBOOK"]
