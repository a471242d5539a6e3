"""Mutated scenarios for the loader fuzz test (``tests/harness/test_loader_fuzz.py``).

Base scenarios come from the harness's own generator (fixed, derandomized draws), so they
start valid and reach every action kind; each input is a base scenario with one to three
mutations (a field deleted, a value replaced by a hostile one, a unit duplicated, a link
pointed elsewhere, deep nesting, ...) drawn by a seeded ``random.Random``. The loader must
answer each with a decoded scenario or a :class:`ProtocolError`, and the model must run
every scenario the loader accepts: anything else is a crash.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from referee.check.harness import model_observation
from referee.protocol import ProtocolError, decode_scenario

HOSTILE = (
    None, True, False, 0, -1, -5, 1, 2**63, -(2**63), 10**30, 1.5, float("nan"), "", "x", "damage", "0",
    [], [1], {}, {"kind": "damage"}, [[[]]], "s" * 1000,
)  # fmt: skip


def base_scenarios(count: int = 40) -> list[dict[str, Any]]:
    """``count`` valid scenarios of every kind, drawn by the harness's generator with a fixed seed."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from referee.rulebooks import ACTION_KINDS
    from referee.check.strategies import scenarios

    out: list[dict[str, Any]] = []

    @settings(max_examples=count, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data: Any) -> None:
        kind = data.draw(st.sampled_from(sorted(ACTION_KINDS)))
        out.append(data.draw(scenarios(kinds=(kind,), max_actions=2)))

    draw()
    return out


def _place(rng: random.Random, value: Any) -> tuple[Any, Any] | None:
    """A random (container, key) inside a JSON value: a random walk down from the top, stopping
    at each level with probability 1/3 (so the top-level fields, units and unit fields all get hit)."""
    place = None
    for _ in range(12):
        keys = list(value) if isinstance(value, dict) else list(range(len(value))) if isinstance(value, list) else []
        if not keys:
            break
        key = rng.choice(keys)
        place = (value, key)
        if rng.random() < 1 / 3:
            break
        value = value[key]
    return place


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def mutate(rng: random.Random, scenario: str) -> Any:
    """One hostile variant of ``scenario`` (its JSON text)."""
    out = json.loads(scenario)
    for _ in range(rng.randint(1, 3)):
        place = _place(rng, out)
        if place is None:
            return out
        container, key = place
        op = rng.random()
        if op < 0.35:
            container[key] = rng.choice(HOSTILE)
        elif op < 0.5:
            if isinstance(container, dict):
                del container[key]
            else:
                container.pop(key)
        elif op < 0.6 and isinstance(container[key], int) and not isinstance(container[key], bool):
            container[key] = container[key] + rng.choice((-1, 1, -100, 100))
        elif op < 0.7:
            board = out.get("board") if isinstance(out, dict) else None
            units = [u for u in board if isinstance(u, dict)] if isinstance(board, list) else []
            if units:
                unit = rng.choice(units)
                other = rng.choice(units)
                unit[rng.choice(("redirect_to", "intercept_by"))] = rng.choice((other.get("uid"), unit.get("uid"), "nobody"))
        elif op < 0.78:
            if isinstance(container, list):
                container.append(json.loads(json.dumps(container[key])))
            else:
                container[rng.choice(("extra", "uid", "kind", "side", "__proto__"))] = rng.choice(HOSTILE)
        elif op < 0.86:
            container[key] = rng.choice(("vitality", "max_vitality", "shield", "alive", "is_boss"))
        elif op < 0.995:
            if isinstance(container[key], (dict, list)) and container[key]:
                inner = container[key]
                container[key] = list(inner.values()) if isinstance(inner, dict) else {str(i): v for i, v in enumerate(inner)}
            else:
                container[key] = -container[key] if isinstance(container[key], int) else None
        else:
            container[key] = _deep(rng.choice((50, 2000, 100_000)))
            break  # nothing is mutated below a deep value
    if rng.random() < 0.01:
        return rng.choice(HOSTILE)  # not an object at all
    return out


@dataclass
class FuzzResult:
    inputs: int = 0
    accepted: int = 0
    rejected: int = 0
    crashes: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        return (f"loader fuzz: {self.inputs} mutated scenarios in {self.seconds:.1f} s ({self.rate:,.0f} inputs/s): "
                f"{self.accepted} accepted and run by the model, {self.rejected} rejected with a field path, "
                f"{len(self.crashes)} crashes")


def fuzz(inputs: int, seed: int = 13, run_model: bool = True) -> FuzzResult:
    """Throw ``inputs`` mutated scenarios at the loader (and at the model, for the accepted ones)."""
    rng = random.Random(seed)
    bases = [json.dumps(b) for b in base_scenarios()]
    result = FuzzResult()
    start = time.perf_counter()
    for _ in range(inputs):
        data = mutate(rng, rng.choice(bases))
        result.inputs += 1
        try:
            decode_scenario(data)
        except ProtocolError:
            result.rejected += 1
            continue
        except Exception as error:  # a crash: anything but a clean, located error
            result.crashes.append(("loader", f"{type(error).__name__}: {str(error)[:200]}"))
            continue
        result.accepted += 1
        if run_model:
            try:
                model_observation(data)
            except Exception as error:
                result.crashes.append(("model", f"{type(error).__name__}: {str(error)[:200]}"))
    result.seconds = time.perf_counter() - start
    return result
