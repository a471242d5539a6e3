"""The partial engine of the guide: `examples/node/partial_engine.js`, a JavaScript engine for the
`damage` kind written from the seeds and the docs alone, without ally redirects, lethal intercepts,
bosses, Reflect, Vessels or Everlasting. With those features left out (`--without`) it passes
`referee check`; with them drawn it refuses the first scenario that uses one, and the report says
which feature and which field."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.rulebooks.combat.codec import UNIT_DEFAULTS
from referee.rulebooks.combat.features import FEATURES

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "examples" / "node" / "partial_engine.js"
COMMAND = shlex.join(["node", str(ENGINE)])
#: The features the partial engine does not implement.
LACKS = ("redirect", "lethal_intercept", "boss", "reflect", "vessel", "everlasting")

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="Node.js (`node`) is not on PATH: the partial engine is JavaScript"
)


def _check(*extra: str) -> tuple[int, str]:
    args = ["check", "--engine", COMMAND, "--kinds", "damage", "--database", "", *extra]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


def _names_a_lacking_feature(report: str) -> bool:
    """The report points at a field (or a damage lane) of one of the features the engine lacks."""
    fields = "|".join(sorted({f for name in LACKS for f in FEATURES[name].fields}))
    lanes = "|".join(sorted({lane for name in LACKS for lane in FEATURES[name].lanes}))
    refused = re.search(rf"board\[\d+\]\.({fields}) = ", report) or re.search(
        rf'actions\[\d+\]\.damage_kind = "({lanes})"', report
    )
    diverged = re.search(rf"board\.\w+\.({fields}):", report)
    return bool(refused or diverged)


@pytest.mark.parametrize("seed", [1, 2])
def test_partial_engine_passes_the_damage_kind_without_the_features_it_lacks(in_tmp, seed):
    status, report = _check("--without", ",".join(LACKS), "--examples", "500", "--seed", str(seed))
    assert status == 0, report
    assert "referee check: PASS" in report
    assert "features: compared 41 of 47 features; not compared: boss, everlasting, lethal_intercept, redirect, reflect, vessel (never drawn)" in report


def test_partial_engine_fails_with_the_feature_named_when_every_feature_is_drawn(in_tmp):
    status, report = _check("--examples", "500", "--seed", "1")
    assert status in (1, 3), report
    assert "referee check: FAIL" in report
    assert _names_a_lacking_feature(report), report
    if status == 3:
        assert "engine fault (crash)" in report and "not implemented" in report, report


def _off_default(field: str) -> object:
    """A value of a unit field that is not its protocol default (a uid for a uid field)."""
    default = UNIT_DEFAULTS[field]
    return True if isinstance(default, bool) else default + 1 if isinstance(default, int) else "b"


def _refusal(unit: dict[str, object], action: dict[str, object]) -> str:
    """The partial engine's stderr for one scenario it must refuse (it answers nothing)."""
    scenario = {"protocol": "referee/2", "id": "s", "board": [{"uid": "a", **unit}],
                "actions": [{"kind": "damage", "target": "a", "amount": 5, **action}]}
    run = subprocess.run(["node", str(ENGINE)], input=json.dumps(scenario) + "\n", capture_output=True,
                         text=True, timeout=30)
    assert run.returncode != 0 and run.stdout == "", run.stdout
    return run.stderr


@pytest.mark.parametrize("name", LACKS)
def test_partial_engine_refuses_a_unit_field_of_a_feature_it_lacks(name):
    field = FEATURES[name].fields[0]
    stderr = _refusal({field: _off_default(field)}, {})
    assert f"feature {name} not implemented: board[0].{field} = " in stderr, stderr


def test_partial_engine_refuses_the_reflect_damage_lane():
    stderr = _refusal({}, {"damage_kind": "reflect"})
    assert 'feature reflect not implemented: actions[0].damage_kind = "reflect"' in stderr, stderr
