"""Hypothesis strategies for whole scenarios of any rulebook.

Each rulebook draws its own scenarios (``referee/rulebooks/<name>/generate.py``, aimed at
that rulebook's boundaries); this module only chooses the rulebook when the chosen kinds
span several, and hands each its readings.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .. import rulebooks

_CHOICES: dict[tuple[str, ...], Any] = {}
_BOOKS: dict[tuple[str, ...], tuple[dict[str, tuple[str, ...]], Any]] = {}


@st.composite
def scenarios(
    draw: Any,
    kinds: tuple[str, ...] | None = None,
    max_actions: int = 2,
    rules: dict[str, Any] | None = None,
    features: frozenset[str] | None = None,
    swarm: bool = False,
    battle: bool = False,
) -> dict[str, Any]:
    """A complete, valid scenario (JSON) over the chosen action kinds (default: the default rulebook's).

    A scenario holds the actions of one rulebook: when the kinds span several, each
    scenario first draws its rulebook. ``battle``: a rulebook that draws whole battles (``draw_battle``: the combat
    rulebook's ``battles.py``) draws one of ``max_actions`` actions.
    """
    by_book, choice = _books(kinds)
    chosen = draw(choice) if choice is not None else next(iter(by_book))
    book = rulebooks.get(chosen)
    own = None if features is None else frozenset(features) & frozenset(book.features)
    if battle and hasattr(book, "draw_battle"):
        return book.draw_battle(draw, by_book[chosen], max_actions, (rules or {}).get(chosen), own)
    return book.draw_scenario(draw, by_book[chosen], max_actions, (rules or {}).get(chosen), own, swarm)


def _books(kinds: tuple[str, ...] | None) -> tuple[dict[str, tuple[str, ...]], Any]:
    """The chosen kinds by rulebook (in the order named) and the strategy choosing a rulebook (None: just one),
    worked out once per kinds (a scenario is drawn hundreds of times a second)."""
    key = tuple(kinds) if kinds else ()
    hit = _BOOKS.get(key)
    if hit is None:
        by_book: dict[str, tuple[str, ...]] = {}
        for name in tuple(kinds or rulebooks.default_kinds()):
            owner = rulebooks.ACTION_KINDS[name].rulebook
            by_book[owner] = (*by_book.get(owner, ()), name)
        books = tuple(by_book)
        if len(books) > 1 and books not in _CHOICES:
            _CHOICES[books] = st.sampled_from(books)
        hit = _BOOKS[key] = (by_book, _CHOICES.get(books) if len(books) > 1 else None)
    return hit
