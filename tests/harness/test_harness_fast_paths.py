"""The harness's quick paths (issue 10, throughput) decide exactly what the long paths decide.

Each quick path in the judge answers only the common case and hands everything else to the
field-by-field code, which names the field of any error. These tests hold the two together:
every mutated scenario and observation (the loader fuzz's mutations) decodes to the same value,
or fails with the same message and kind, with the quick paths on and forced off; the seeded
drawers give the very values the plain ``random`` calls give; ``_copy`` is a deep copy; the
in-process engine puts the previous alarm handler back after a batch.
"""

from __future__ import annotations

import json
import random
import signal
from typing import Any

import pytest

from loader_fuzz import base_scenarios, mutate
from plain_draws import PLAIN_DRAWS
from referee.check import compare as compare_module
from referee.engines import transports as engines
from referee import rulebook, seeded, wire
from referee.check.compare import Comparison, compare
from referee.engines.transports import PythonEngine, check_answer
from referee.examples.engine import run as example_run
from referee.check.harness import model_observation
from referee.model.combat import legal as assumptions
from referee.protocol import ProtocolError, decode_observation, decode_scenario
from referee.rulebooks.combat import codec


class _Never(list):
    """A list that holds nothing and learns nothing (the unit's quick test never applies)."""

    def __contains__(self, item: object) -> bool:
        return False

    def append(self, item: object) -> None:
        pass


@pytest.fixture
def long_paths(monkeypatch):
    """A function switching every decoding quick path off (for the rest of the test)."""
    def switch_off() -> None:
        monkeypatch.setattr(codec, "_WELL_TYPED", _Never())
        monkeypatch.setattr(codec, "_READING_TYPES", frozenset())
        monkeypatch.setattr(codec, "_RULESETS", {})
        monkeypatch.setattr(wire, "_plain_event", lambda data: None)
        monkeypatch.setattr(rulebook, "_quick_test", lambda f: (rulebook._NEVER, None))
        monkeypatch.setattr(rulebook, "_PLANS", {})
        monkeypatch.setattr(wire, "_VIOLATIONS", _Forgetful())
        monkeypatch.setattr(codec, "_CANONICAL", _Forgetful())
        monkeypatch.setattr(assumptions, "plainly_in_domain", lambda unit: False)
    return switch_off


class _Forgetful(dict):
    """A memo that remembers nothing (every lookup asks the long way)."""

    def get(self, key: object, default: object = None) -> object:
        return default

    def __setitem__(self, key: object, value: object) -> None:
        pass


def _combat(count: int) -> list[dict[str, Any]]:
    """``count`` combat scenarios of the loader fuzz's bases (every kind; some bases are play scenarios)."""
    found = [s for s in base_scenarios(40) if "board" in s]
    assert len(found) >= count
    return found[:count]


def _outcome(decode: Any, data: Any) -> tuple[str, str, str]:
    try:
        return "ok", repr(decode(data)), ""
    except ProtocolError as error:
        return "error", str(error), error.kind


def _inputs(count: int, seed: int, observations: bool) -> list[str]:
    """The base scenarios (or the example engine's observations of them) and ``count`` mutations, as JSON texts
    (the mutations may share, and go on mutating, the fuzz's hostile values: each side decodes its own copy);
    a mutation nested too deep to write is left out."""
    bases = base_scenarios(12)
    if observations:
        bases = [example_run(json.loads(json.dumps(b))) for b in bases]
    texts = [json.dumps(b) for b in bases]
    rng = random.Random(seed)
    out = list(texts)
    for _ in range(count):
        try:
            out.append(json.dumps(mutate(rng, rng.choice(texts))))
        except RecursionError:
            pass
    return out


def _assert_decoded_alike(decode, seed: int, observations: bool, long_paths) -> None:
    """1,500 mutated inputs decode to the same value or the same error, quick paths on and then forced off."""
    inputs = _inputs(1500, seed, observations=observations)
    quick = [_outcome(decode, json.loads(x)) for x in inputs]
    long_paths()
    slow = [_outcome(decode, json.loads(x)) for x in inputs]
    assert quick == slow
    assert sum(o[0] == "ok" for o in quick) > 100 and sum(o[0] == "error" for o in quick) > 500


def test_mutated_scenarios_decode_alike_with_and_without_the_quick_paths(long_paths):
    _assert_decoded_alike(decode_scenario, 7, False, long_paths)


def test_mutated_observations_decode_alike_with_and_without_the_quick_paths(long_paths):
    decode = lambda data: decode_observation(data, fields_needed=None, events_needed=True)  # noqa: E731
    _assert_decoded_alike(decode, 8, True, long_paths)


def test_a_unit_decoded_the_quick_way_is_the_unit_of_the_long_way_field_for_field_in_order(long_paths):
    units = [u for s in _combat(12) for u in s["board"]]
    quick = [codec.unit_from_json("u", u) for u in units]
    assert codec._WELL_TYPED  # the quick test learnt the harness's type sequences
    long_paths()
    slow = [codec.unit_from_json("u", u) for u in units]
    assert quick == slow
    assert [list(vars(a).items()) for a in quick] == [list(vars(b).items()) for b in slow]  # compare's _identical


def test_a_true_in_an_integer_field_is_refused_by_name_after_the_quick_test_learnt_the_unit():
    unit = _combat(1)[0]["board"][0]
    codec.unit_from_json("u", dict(unit))
    for name, kind in codec.UNIT_FIELDS.items():
        bad = dict(unit, **{name: True if kind != "boolean" else 1})
        with pytest.raises(ProtocolError) as error:
            codec.unit_from_json("scenario.board[0]", bad)
        assert error.value.path == f"scenario.board[0].{name}"


def test_equal_event_sequences_never_diverge_and_the_first_difference_is_still_found():
    scenario = next(s for s in _combat(12) if model_observation(s).events)
    expected = model_observation(scenario)
    observed = check_answer(example_run(json.loads(json.dumps(scenario))), scenario, fields_needed=None,
                            events_needed=True)
    assert compare(expected, observed, Comparison()) == []
    assert compare_module.first_event_divergence(expected.events, observed.events, frozenset()) is None
    if expected.events:
        changed = (*expected.events[:-1], wire.Event(expected.events[-1].name, expected.events[-1].unit,
                                                     expected.events[-1].amount + 1, expected.events[-1].other,
                                                     expected.events[-1].detail))
        found = compare_module.first_event_divergence(expected.events, changed, frozenset(wire.EVENT_NAMES))
        assert found is not None and found.path == f"events[{len(changed) - 1}]"


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 8, 9, 100, 127, 128, 129, 1000, 2**31 + 11, 2**64])
def test_the_seeded_below_draws_what_randrange_draws(n):
    below = seeded._below(n)
    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert [below(ours) for _ in range(30)] == [theirs.randrange(n) for _ in range(30)]
        assert ours.getstate() == theirs.getstate()


def test_the_seeded_drawers_draw_what_the_plain_random_calls_draw():
    """Integers (narrow, and wide with Hypothesis' weight on the bounds), sampled_from, one_of and lists."""
    for strategy, plain in PLAIN_DRAWS:
        for seed in range(200):
            assert seeded.draw_seeded(strategy, seed, 3) == [plain(random.Random(seed + k)) for k in range(3)]


def test_copy_is_a_deep_copy_that_shares_no_dict_or_list():
    scenario = _combat(2)[1]
    scenario["extra"] = [[{"a": [1, 2]}], {"b": {"c": []}}]
    copy = engines._copy(scenario)
    assert copy == scenario and list(copy) == list(scenario)

    def containers(value: Any) -> list[int]:
        if isinstance(value, dict):
            return [id(value)] + [i for v in value.values() for i in containers(v)]
        if isinstance(value, list):
            return [id(value)] + [i for v in value for i in containers(v)]
        return []

    assert not set(containers(copy)) & set(containers(scenario))


def test_the_in_process_engine_puts_the_previous_alarm_handler_back_after_a_batch():
    def mine(signum: int, frame: Any) -> None:
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    outer = signal.setitimer(signal.ITIMER_REAL, 0)  # a test runner's per-test alarm, put back below
    try:
        engine = PythonEngine(example_run)
        answers = engine.run_batch([json.loads(json.dumps(s)) for s in _combat(3)])
        assert all(isinstance(a, dict) for a in answers)
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0), "no timer of the engine's is left running"
    finally:
        signal.signal(signal.SIGALRM, previous)
        signal.setitimer(signal.ITIMER_REAL, *outer)


def test_the_worker_starts_without_importing_the_protocol_the_rulebooks_or_hypothesis():
    """``python -m referee.engines.worker`` is started for every ``--python`` run: its imports are the standard library's."""
    import subprocess
    import sys

    code = ("import sys, referee.engines.worker; print(sorted(m for m in ('referee.protocol', 'referee.rulebooks', "
            "'referee.engines.transports', 'hypothesis') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_non_json_values_in_an_answer_are_still_found_by_path():
    unit = {"uid": "a", "shield": 1}
    assert engines.non_json_path({"board": [unit], "events": []}) is None
    assert engines.non_json_path({"board": [dict(unit, shield=float("nan"))]}) == \
        "observation.board[0].shield: nan is not a JSON number"
    assert engines.non_json_path({"board": [{**unit, 3: 1}]}) == "observation.board[0]: key 3 is a int, not a string"
    assert engines.non_json_path({"board": [dict(unit, shield={1, 2})]}).startswith("observation.board[0].shield: a set")


def test_the_contract_memo_answers_what_violation_answers_for_every_name_and_field_choice():
    """Every event name, with each field null or not, 0 or not, each contract word and a stranger, on every
    field choice: ``check_event_contracts`` (the memo, asked twice) raises what ``violation`` says, or nothing."""
    choices = [None, ("name",), ("name", "unit"), ("name", "amount", "detail"), ("name", "unit", "amount", "other")]
    checked = 0
    for spec in wire.EVENTS.values():
        words = [None, "zzz", *(spec.detail or ())]
        for unit in (None, "a"):
            for amount in (0, 3, -2):
                for other in (None, "b"):
                    for detail in words:
                        event = wire.Event(spec.name, unit, amount, other, detail)
                        for fields in choices:
                            broken = spec.violation(event, fields)
                            for _ in range(2):
                                try:
                                    wire.check_event_contracts("observation", (event,), fields)
                                    got = None
                                except ProtocolError as error:
                                    got = (error.path, str(error))
                                want = None if broken is None else (
                                    f"observation.events[0].{broken[0]}", f"observation.events[0].{broken[0]}: {broken[1]}")
                                assert got == want, (event, fields)
                                checked += 1
    assert checked > 10_000


def test_an_event_of_the_quick_path_is_shared_only_with_equal_values_of_the_same_types():
    plain = {"name": "damage_taken", "unit": "a", "amount": 1, "other": None, "detail": "hit"}
    first = wire._plain_event(dict(plain))
    assert wire._plain_event(dict(plain)) is first
    assert wire._plain_event(dict(plain, amount=True)) is None  # True is not an amount, memo or not
    assert wire._plain_event(dict(plain, amount=2)) == wire.Event("damage_taken", "a", 2, None, "hit")


def test_an_ability_remembered_is_told_apart_from_one_of_other_types_or_order():
    """The ability memo's key: ``True`` is not ``1``, a tuple is not a list, key order counts; a copy each time."""
    ability = {"name": "x", "numbers": {"power": 4}, "lines": [{"effect": "damage", "amount": "{power}"}]}
    first = codec.canonical_ability("a", json.loads(json.dumps(ability)))
    again = codec.canonical_ability("a", json.loads(json.dumps(ability)))
    assert first == again == codec.ability_to_json(codec.ability_from_json("a", ability)) and first is not again
    assert again["lines"][0] is not first["lines"][0]
    for odd in (dict(ability, numbers={"power": True}), dict(ability, lines=tuple(ability["lines"])),
                dict(ability, numbers={"power": 4.0})):
        with pytest.raises(ProtocolError):
            codec.canonical_ability("a", odd)
    assert codec._exact_key({"a": 1, "b": 2}, 0) != codec._exact_key({"b": 2, "a": 1}, 0)
    assert codec._exact_key([[[[[1]]]]], 0) is None  # deeper than an ability: decoded the long way


def test_a_combat_scenario_built_the_quick_way_is_the_dataclass_built_by_its_init():
    from referee.rulebooks.combat import run as combat_run

    decoded = decode_scenario(_combat(1)[0])
    again = codec.CombatScenario("combat", decoded.state, decoded.rules, decoded.actions, id=decoded.id, raw=decoded.raw)
    assert list(vars(decoded).items()) == list(vars(again).items()) and decoded == again and repr(decoded) == repr(again)
    assert combat_run._scenario(decoded.state, decoded.rules, decoded.actions, None, {}) == \
        codec.CombatScenario("combat", decoded.state, decoded.rules, decoded.actions)
