"""The combat rulebook (chapters 400, 500, 800): the damage pipeline, Armor, costs, retaliation, Bloodletting."""

# The damage pipeline's fast twin installs itself into ``damage`` when imported (see ``fast``).
from . import fast  # noqa: E402,F401
