"""A witness as protocol scenarios, replayed through ``referee.actions`` (and, if asked, an engine)."""

from __future__ import annotations

from typing import Any

from .solve import replay_values


def decode_scenario(scenario: dict[str, Any], legal_only: bool = True) -> Any:
    """The combat loader's decoding; ``legal_only=False`` for a ``--whole-domain`` witness (no legal-state checks)."""
    from referee.rulebooks.combat.run import decode_scenario as decode

    return decode(scenario, legal_only=legal_only)


def trim_rolls(scenario: dict[str, Any], legal_only: bool = True) -> dict[str, Any]:
    """Drop the Riposte rolls the scenario never consumes (a missing roll that is needed is an error)."""
    from referee.rulebooks.combat.run import run_actions
    from referee.model.combat.retaliation import ScenarioError

    for action in scenario["actions"]:
        for holder in action.get("hits", [action]):
            while holder.get("riposte_rolls"):
                kept = holder["riposte_rolls"]
                holder["riposte_rolls"] = kept[:-1]
                try:
                    decoded = decode_scenario(scenario, legal_only)
                    run_actions(decoded.board, decoded.actions, decoded.ruleset)
                except ScenarioError:
                    holder["riposte_rolls"] = kept
                    break
    return scenario


def model_observation(scenario: dict[str, Any], legal_only: bool = True) -> tuple[dict[str, Any], Any, Any]:
    """The scenario decoded and run exactly as ``referee check`` runs it: observation, board, events."""
    from referee.rulebooks.combat.run import run_actions
    from referee.rulebooks.combat.codec import encode_observation

    decoded = decode_scenario(scenario, legal_only)
    after, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
    return encode_observation(after, log.events(), sid=scenario.get("id")), after, log.events()


def replay_answer(query: Any, cell: Any, values: dict[str, Any]) -> Any:
    """The ``found`` answer: scenarios, the model's observation, and a check that both runners agree."""
    from referee.rulebooks.combat.codec import board_to_json, encode_scenario

    from .records import QueryAnswer

    holds, replay = replay_values(values, cell, query.specs, query.fixed, query.split, query.condition)
    scenarios: dict[str, dict[str, Any]] = {}
    disagreements = []
    observation = None
    for name, run in replay["runs"].items():
        scenario = trim_rolls(encode_scenario(run.before, run.json_actions, replay["ruleset"], sid=f"query-{name}"),
                              not query.whole_domain)
        scenarios[name] = scenario
        seen, after, events = model_observation(scenario, not query.whole_domain)
        own = [g.event for log in run.logs for g in log.entries]
        if board_to_json(after) != board_to_json(run.states[-1]) or list(events) != own:
            disagreements.append(name)
        if name == "main":
            observation = seen
    status = "found" if holds and not disagreements else "encoding-defect"
    detail = "" if status == "found" else \
        f"the query's runner and referee.actions disagree on the witness ({', '.join(disagreements)})"
    if status == "found" and query.whole_domain:
        detail = outside_legal_states(scenarios["main"])
    return QueryAnswer(status, query.text, query.space(), scenarios["main"], observation, detail,
                       scenarios=scenarios if query.split else {}, cell=cell.label())


def outside_legal_states(scenario: dict[str, Any]) -> str:
    """Whether a ``--whole-domain`` witness is a legal state, in words (the loader's own verdict)."""
    from referee.wire import ProtocolError

    try:
        decode_scenario(scenario)
    except ProtocolError as error:
        return f"this witness is not a legal state (the loader refuses it: {error})"
    return "this witness is a legal state too"


def replay_on_engine(answer: Any, engine: Any) -> dict[str, Any]:
    """Run the witness's scenarios through an engine; whether it agrees with the model, field by field."""
    from referee.check.compare import Comparison, compare
    from referee.check.harness import engine_answers
    from referee.engines.transports import EngineFault, check_answer
    from referee.protocol import decode_observation

    scenarios = answer.scenarios or {"main": answer.scenario}
    report: dict[str, Any] = {"engine": getattr(engine, "name", "engine"), "agrees": True, "divergences": []}
    engine.start()
    raw = engine_answers(engine, list(scenarios.values()))
    for (name, scenario), got in zip(scenarios.items(), raw):
        checked = check_answer(got, scenario, fields_needed=None, events_needed=True)
        if isinstance(checked, EngineFault):
            report["agrees"] = False
            report["divergences"].append(f"{name}: {checked.describe()}")
            continue
        play = scenario.get("rulebook") == "play"  # a play witness: the observation its answer already replayed
        expected = decode_observation(answer.observation if play else model_observation(scenario)[0],
                                      rulebook="play" if play else None)
        for divergence in compare(expected, checked, Comparison(), rulebook="play" if play else None):
            report["agrees"] = False
            report["divergences"].append(f"{name}: {divergence}")
    return report
