"""The combat rulebook's action kinds, one module per chapter's actions.

A new kind is a module here exporting ``KINDS`` (a tuple of :class:`ActionKind`), named
in :data:`MODULES`; nothing outside ``referee/rulebooks/combat/`` changes.
"""

from __future__ import annotations

from ....rulebook import ActionKind
from . import ability, armor_debuff, clock, cost, cull, damage, recovery, tick

#: The modules that declare kinds, in the order the kinds are documented and drawn.
MODULES = (damage, cost, armor_debuff, ability, recovery, cull, tick, clock)

KINDS: dict[str, ActionKind] = {kind.name: kind for module in MODULES for kind in module.KINDS}
