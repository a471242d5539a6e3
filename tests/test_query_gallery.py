"""The gallery of designer questions (tests/query_gallery.py): verdicts, replayed witnesses, the page."""

from __future__ import annotations

import pytest

from referee.rulebooks.combat.run import run_actions
from referee.protocol import decode_scenario
from referee.rulebooks.combat.codec import encode_observation
from referee.query import run_query
from referee.query.docs import render_page
from referee.specs.paths import repo_root

from query_gallery import GALLERY  # tests/ is on sys.path (rootdir conftest)

#: The four questions `referee query` once answered "impossible" wrongly (issue 12).
ONCE_WRONG = ("riposte-kills-attacker", "dormant-takes-damage", "lethal-redirect", "ally-redirect", "riposte-misses")


_ANSWERS: dict[str, object] = {}


def ask(question):
    """Each question is asked once per run (the answer is deterministic: fixed seeds, fresh contexts), over every
    reading with ``--by-reading`` (a question with an objective: as it is)."""
    if question.id not in _ANSWERS:
        by_reading = question.objective is None
        _ANSWERS[question.id] = run_query(question.condition, **question.options, by_reading=by_reading)
    return _ANSWERS[question.id]


@pytest.mark.parametrize("question", [pytest.param(q, id=q.id, marks=[pytest.mark.slow] if q.slow else []) for q in GALLERY])
def test_gallery_question_gets_its_verdict_and_a_found_witness_replays(question) -> None:
    from referee.query.by_reading import cube_words

    answer = ask(question)
    assert answer.status == question.expected, (answer.status, answer.detail)
    if answer.by_reading is not None:
        assert answer.by_reading["complete"], answer.detail
        assert cube_words(answer.by_reading["possible_when"]) == question.possible_under(), answer.detail
    if question.objective is not None:
        assert answer.objective["value"] == question.objective and answer.objective["proved"]
    if answer.status == "impossible":
        assert answer.space.startswith("over ") and answer.space in answer.detail
        return
    if answer.scenario.get("rulebook") == "play":  # a play witness replays through the play rulebook
        from referee.rulebooks.play.codec import encode_observation as encode_play
        from referee.rulebooks.play.run import run as run_play

        state, events = run_play(decode_scenario(answer.scenario))
        assert encode_play(state, events, sid=answer.scenario["id"]) == answer.observation
        return
    for scenario in answer.scenarios.values() or [answer.scenario]:
        decoded = decode_scenario(scenario)
        after, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
        if scenario is answer.scenario:
            assert encode_observation(after, log.events(), sid=scenario["id"]) == answer.observation


@pytest.mark.parametrize("question_id", ONCE_WRONG)
def test_a_once_wrong_impossible_is_found_and_the_example_engine_agrees(question_id: str) -> None:
    from referee.engines.transports import PythonEngine
    from referee.query.replay import replay_on_engine

    question = next(q for q in GALLERY if q.id == question_id)
    answer = ask(question)
    assert answer.status == "found"
    report = replay_on_engine(answer, PythonEngine("referee.examples.engine:run"))
    assert report["agrees"], report["divergences"]


def test_a_mutant_engine_is_reported_as_disagreeing() -> None:
    from referee.engines.transports import PythonEngine
    from referee.query.replay import replay_on_engine

    answer = ask(next(q for q in GALLERY if q.id == "riposte-misses"))

    def drops_events(scenario):
        from referee.examples.engine import run

        observation = run(scenario)
        return {**observation, "events": []}

    report = replay_on_engine(answer, PythonEngine(drops_events))
    assert not report["agrees"] and report["divergences"]


def test_the_gallery_has_the_questions_the_issue_names() -> None:
    ids = {q.id for q in GALLERY}
    assert len(GALLERY) >= 15
    assert set(ONCE_WRONG) <= ids
    assert {"split-loses-more", "insurance-absorbed-thorns", "cost-spends-shield", "reflect-sets-off-thorns"} <= ids


def test_docs_query_page_holds_the_gallery_and_the_reference() -> None:
    page = repo_root() / "docs" / "query.md"
    text = page.read_text()
    assert render_page(text, GALLERY) == text, "docs/query.md is stale: run python -m referee.query.docs"
