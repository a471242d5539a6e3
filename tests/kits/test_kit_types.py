"""The kits' protocol types are generated from ``referee schema`` and never drift from it.

The committed ``protocol.ts`` and ``protocol.rs`` are what the generator writes today (a protocol change
regenerates them: ``referee docs``); the generator reads exactly the part of JSON Schema the schemas use and
refuses the rest; and the Rust types read every scenario of every action kind and round-trip every expected
observation of a vector export, built offline against Debian's crates.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.kits import emit_rust, emit_typescript
from referee.kits.typegen import Enum, Struct, Tagged, read_protocol
from referee.kits.types import TYPE_FILES, render_types

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = Path(os.environ.get("REFEREE_CARGO_REGISTRY", "/usr/share/cargo/registry"))
OFFLINE = ["--offline", "--config", 'source.crates-io.replace-with="debian"',
           "--config", f'source.debian.directory="{REGISTRY}"']


def test_the_committed_types_are_what_the_schemas_generate():
    stale = [path for path, text in render_types().items() if (ROOT / path).read_text(encoding="utf-8") != text]
    assert not stale, f"{', '.join(stale)}: out of date with `referee schema`; run `referee docs`"


def _schemas(scenario_props: dict, extra_defs: dict | None = None) -> tuple[dict, dict]:
    scenario = {"oneOf": [{"$ref": "#/$defs/combat_scenario"}],
                "$defs": {"combat_scenario": {"type": "object", "properties": scenario_props}, **(extra_defs or {})}}
    observation = {"properties": {"protocol": {"const": "referee/2"}}, "$defs": {
        "unsupported": {"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"]}}}
    return scenario, observation


def test_the_generator_reads_enums_consts_nullables_and_tagged_unions():
    module = read_protocol(*_schemas({
        "protocol": {"const": "referee/2"},
        "lane": {"type": "string", "enum": ["a", "b", None]},
        "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}}},
        {"action": {"oneOf": [{"type": "object", "properties": {"kind": {"const": "poke"}, "n": {"type": "integer"}},
                               "required": ["kind", "n"]}]}}))
    lane = next(f for f in module.types["CombatScenario"].fields if f.name == "lane")
    assert isinstance(module.types["Lane"], Enum) and module.types["Lane"].values == ["a", "b"] and lane.nullable
    assert isinstance(module.types["Action"], Tagged) and module.types["Action"].variants == [("poke", "PokeAction")]
    assert [f.name for f in module.types["PokeAction"].fields] == ["n"]  # the tag is the union's
    rust = emit_rust.emit(module, "referee/2")
    assert '#[serde(tag = "kind")]' in rust and "pub lane: Option<Lane>," in rust and "pub enum Protocol" in rust
    assert 'kind: "poke";' in emit_typescript.emit(module, "referee/2")


@pytest.mark.parametrize("schema", [{"type": "number"}, {"anyOf": [{"type": "string"}]}, {"type": ["string", "boolean"]}])
def test_the_generator_refuses_what_it_cannot_carry(schema):
    with pytest.raises((ValueError, KeyError)):
        read_protocol(*_schemas({"x": schema}))


def test_two_different_enums_of_one_key_get_their_owners_names():
    module = read_protocol(*_schemas({
        "a": {"type": "object", "properties": {"mode": {"type": "string", "enum": ["x"]}}},
        "b": {"type": "object", "properties": {"mode": {"type": "string", "enum": ["y"]}}}}))
    assert module.types["Mode"].values == ["x"] and module.types["CombatScenarioBMode"].values == ["y"]


def _cargo_ready() -> bool:
    return shutil.which("cargo") is not None and all(any(REGISTRY.glob(f"{c}-[0-9]*")) for c in
                                                     ("serde", "serde_derive", "serde_json"))


ROUND_TRIP = """
mod protocol;
use std::io::BufRead;
fn main() {
    let observations = std::env::args().nth(1).is_some();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        if observations {
            let o: protocol::Observation = serde_json::from_str(&line).expect("an observation");
            println!("{}", serde_json::to_string(&o).unwrap());
        } else {
            let s: protocol::Scenario = serde_json::from_str(&line).expect("a scenario");
            println!("{}", s.first_kind());
        }
    }
}
"""


@pytest.fixture(scope="module")
def rust_reader(tmp_path_factory) -> Path:
    """A program of the generated Rust types alone: reads scenarios (prints each first kind) or observations
    (writes each back)."""
    if not _cargo_ready():
        if os.environ.get("CI"):
            pytest.fail("cargo or Debian's serde crates are missing (.ci/run installs them)")
        pytest.skip("cargo or Debian's serde crates are missing")
    folder = tmp_path_factory.mktemp("types")
    (folder / "src").mkdir()
    (folder / "Cargo.toml").write_text('[package]\nname = "types"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\n'
                                       'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n')
    shutil.copy(ROOT / TYPE_FILES["rust"], folder / "src" / "protocol.rs")
    (folder / "src" / "main.rs").write_text(ROUND_TRIP)
    built = subprocess.run(["cargo", "build", "-q", *OFFLINE], cwd=folder, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    return folder / "target" / "debug" / "types"


def test_the_rust_types_read_a_scenario_of_every_action_kind(rust_reader):
    from referee.check.probe import probe_kinds, probe_scenario

    lines = "".join(json.dumps(probe_scenario(kind)) + "\n" for kind in probe_kinds())
    out = subprocess.run([str(rust_reader)], input=lines, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == list(probe_kinds())


def test_the_rust_types_write_back_every_observation_they_read(rust_reader):
    from referee.examples.engine import run
    from referee.check.probe import probe_kinds, probe_scenario

    answers = [run({**probe_scenario(kind), "id": kind}) for kind in probe_kinds()]
    lines = "".join(json.dumps(answer) + "\n" for answer in answers)
    out = subprocess.run([str(rust_reader), "observations"], input=lines, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for sent, back in zip(answers, map(json.loads, out.stdout.splitlines())):
        assert _normal(back) == _normal(sent)


def _normal(observation: dict) -> dict:
    """An observation with each event's five fields spelled out (a default left out is the same event)."""
    events = [{"name": e["name"], "unit": e.get("unit"), "amount": e.get("amount", 0), "other": e.get("other"),
               "detail": e.get("detail")} for e in observation.get("events", [])]
    return {**observation, "events": events}
