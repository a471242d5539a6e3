"""Every action kind of every rulebook, by name (a view of :mod:`referee.rulebooks`).

A kind is declared in its rulebook's package (``referee/rulebooks/<name>/kinds``), never
here; this module only answers "which kinds are there" for the generic tools.
"""

from __future__ import annotations

from .rulebook import ActionKind, Field  # noqa: F401 - the interface, re-exported
from .rulebooks import ACTION_KINDS, default_kinds, kinds_of  # noqa: F401
