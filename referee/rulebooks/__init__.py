"""The registry of rulebooks: every package in this folder that defines ``RULEBOOK``.

The generic tools look a rulebook up here, by name, by action kind or by scenario, and
never import a rulebook package themselves: adding a rulebook is adding a folder.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from ..rulebook import ActionKind, Rulebook
from ..wire import ProtocolError, require_object, shown


def _discover() -> dict[str, Rulebook]:
    found: dict[str, Rulebook] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.ispkg:
            rulebook = importlib.import_module(f"{__name__}.{info.name}").RULEBOOK
            found[rulebook.name] = rulebook
    defaults = [r.name for r in found.values() if r.is_default]
    if len(defaults) != 1:
        raise RuntimeError(f"exactly one rulebook must be the default, found {defaults}")
    return dict(sorted(found.items(), key=lambda item: not item[1].is_default))


#: Every rulebook, by name, the default one first.
RULEBOOKS: dict[str, Rulebook] = _discover()
#: Every action kind of every rulebook, by name (kind names are unique across rulebooks).
ACTION_KINDS: dict[str, ActionKind] = {name: kind for r in RULEBOOKS.values() for name, kind in r.kinds.items()}
assert len(ACTION_KINDS) == sum(len(r.kinds) for r in RULEBOOKS.values()), "an action kind name is used twice"


def default() -> Rulebook:
    """The rulebook of a scenario that names none."""
    return next(iter(RULEBOOKS.values()))


def get(name: str) -> Rulebook:
    """The rulebook called ``name``; a ValueError lists the known ones."""
    if name not in RULEBOOKS:
        raise ValueError(f"unknown rulebook {name!r} (known: {', '.join(RULEBOOKS)})")
    return RULEBOOKS[name]


def of_kind(kind: str) -> Rulebook:
    """The rulebook an action kind belongs to."""
    return RULEBOOKS[ACTION_KINDS[kind].rulebook]


def of_scenario(data: Any, path: str = "scenario") -> Rulebook:
    """The rulebook a scenario's ``rulebook`` field names (the default when absent)."""
    name = require_object(path, data).get("rulebook", default().name)
    if not isinstance(name, str) or name not in RULEBOOKS:
        import json

        raise ProtocolError(f"{path}.rulebook", f"expected one of {', '.join(RULEBOOKS)}, got {shown(name)}")
    return RULEBOOKS[name]


def kinds_of(rulebook: str) -> tuple[str, ...]:
    """The action kinds of one rulebook, in their documented order."""
    return tuple(get(rulebook).kinds)


def default_kinds() -> tuple[str, ...]:
    """The kinds a check draws when none are chosen: the default rulebook's."""
    return tuple(default().kinds)


def all_features() -> dict[str, str]:
    """Every feature of every rulebook: its name and the rulebook it belongs to."""
    return {name: r.name for r in RULEBOOKS.values() for name in r.features}


def resolve_features(features: list[str] | None = None, without: list[str] | None = None) -> frozenset[str] | None:
    """The features a run may draw: ``features`` (all when None) less ``without``; None when neither is given.

    An unknown name is a ValueError listing the known ones.
    """
    known = all_features()
    for name in [*(features or []), *(without or [])]:
        if name not in known:
            raise ValueError(f"unknown feature {name!r} (known: {', '.join(sorted(known))})")
    if features is None and not without:
        return None
    return frozenset(features if features is not None else known) - frozenset(without or ())


def features_compared(features: frozenset[str] | None, books: Any = None) -> str:
    """What a profile compares, counted over the features of ``books`` (every rulebook's when None): "all 47
    features", or "31 of 47 features; not compared: ..." (every verdict's summary says it, so a profile that
    compares less, an upgrade's narrowed ``features`` list among them, is never silent)."""
    known = sorted(name for name, book in all_features().items() if books is None or book in set(books))
    if not known:
        return "no features defined for these kinds"
    left_out = [name for name in known if features is not None and name not in features]
    if not left_out:
        return f"all {len(known)} features"
    return f"{len(known) - len(left_out)} of {len(known)} features; not compared: {', '.join(left_out)}"


def profile_off(features: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The state fields and the event keys (``name`` or ``name:detail``) of every feature not in ``features``:
    what a profile neither requires from an engine nor compares."""
    off = [f for book in RULEBOOKS.values() for name, f in book.features.items() if name not in features]
    fields = frozenset(n for f in off for n in getattr(f, "fields", ()))
    events = frozenset(k for f in off for k in getattr(f, "events", ()))
    return fields, events


def parse_rule_words(options: list[str] | tuple[str, ...] | None, flag: str = "--ruleset") -> dict[str, Any]:
    """``--ruleset name=value`` words (``check``, ``query``, ...) to every rulebook's rules object
    (by the rulebook that owns each name); a ValueError naming the bad word."""
    pairs: dict[str, object] = {}
    for item in options or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            hint = " (one option per --ruleset, not JSON)" if item.lstrip().startswith("{") else ""
            raise ValueError(f"{flag} {item!r}: expected name=value{hint}, e.g. {flag} negative_armor=reciprocal")
        pairs[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return rules_from_options(pairs)


def rules_from_options(pairs: dict[str, Any]) -> dict[str, Any]:
    """``name=value`` readings split by the rulebook that owns each name; every rulebook's rules object."""
    owners = {option: r.name for r in RULEBOOKS.values() for option in r.rule_options()}
    chosen: dict[str, dict[str, Any]] = {name: {} for name in RULEBOOKS}
    for option, value in pairs.items():
        if option not in owners:
            raise ValueError(f"unknown ruleset option {option!r} (known: {', '.join(sorted(owners))})")
        chosen[owners[option]][option] = value
    return {name: RULEBOOKS[name].rules_from_options(values) for name, values in chosen.items()}
