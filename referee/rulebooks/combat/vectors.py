"""The combat rulebook's conformance vectors: one per branch of every tagged model function.

How they are found (DESIGN, proofs/ way (a)): each action runs through the model *on Z3
terms* (inside ``arith.symbolic()``), from a handful of structural templates (who is on
the board, who redirects to whom, which lane). While it runs, a profiler notes every
symbolic branch point inside a tagged model function: each ``ite`` condition and each
guarded event. A branch is the pair (call site, polarity). For every branch not yet
covered, Z3 is asked for values that take it, under the same validity bounds the
strategies respect; the values are turned back into a concrete scenario (the template
run on numbers), the concrete model produces the expected observation, and the vector is
filed under its clause. A branch Z3 proves impossible in every template is listed as
unreachable; one it cannot decide within the resource limit is listed as unknown. A template
that takes no new branch still gets one vector: its board shape is a case of its own. Then
hand-written boundary cases are added (``BOUNDARY_CASES``).

Under a profile (``--kinds``/``--features``) the search stays inside it: Z3 keeps the fields of
every feature left out at their defaults, and a template whose action kind or board shape lies
outside is not searched (its branches are listed as ``outside_profile`` unless a template inside
takes them). Each vector's ``exercises`` (:func:`exercised_branches`) are the branches its
concrete model run takes: what the per-clause table of ``vectors run`` judges a clause by.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.model.arith import is_symbolic, symbolic
from referee.model.clauses import IMPLEMENTATIONS, clauses_of, load_all_model_modules
from referee.model.combat.ruleset import DEFAULT
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.proofs.core import Vars

from ...rulebook import Vector
from ...trail import clauses_applied
from ...wire import PROTOCOL
from .codec import UNIT_DEFAULTS, encode_observation, encode_scenario, unit_to_json
from .features import FEATURES, off_fields
from .kinds import KINDS
from .run import observe
from .templates import Template

METHOD = ("Z3 branch discovery over the templates each combat action kind declares (one vector per branch of "
          "every tagged model function), plus the hand-written BOUNDARY_CASES; every expected observation "
          "computed by running the model")

#: The Z3 resource limit per branch query (machine independent, like the proofs).
RLIMIT = 4_000_000
#: A wall-clock safety net only: Z3's nonlinear arithmetic does not always honour the rlimit.
#: A query stopped by it counts as unknown, never as covered.
SAFETY_TIMEOUT_MS = 120_000


#: Bounds on every variable, by field name: small, readable, and inside what the strategies draw.
BOUNDS: dict[str, tuple[int, int]] = {
    "max_vitality": (1, 300),
    "armor": (-400, 3000),
    "ignore_charges": (0, 3),
    "subrogated": (0, 4),
    "insurance": (0, 4),
    "vessels": (0, 2),
    "shield": (0, 10000),
    "cap": (0, 300),
    "shield_multiplier": (1, 3),
    "rune_tick_reduction": (0, 30),
    "forge_tick_reduction": (0, 30),
    "thorns": (0, 30),
    "riposte": (0, 30),
    "retort": (0, 30),
    "redirect_cap": (0, 100),
    "adrenaline": (0, 20),
    "momentum": (0, 20),
    "bolster": (0, 20),
    "bloodletting_reduction": (0, 20),
    "maim": (0, 20),
    "forge_core_recovery": (0, 30),
    "exalt": (0, 30),
    "applied": (1, 20),
    "amount": (-30, 3000),
    "cost": (-10, 400),
}


#: Wider bounds, tried only for a branch no scenario inside ``BOUNDS`` takes: the model's guards
#: against a negative Shield, cap or multiplier are branches too, and deserve a vector.
#: Shield is not widened: a negative Shield pool lies outside the input domain the theorems assume and
#: the loader accepts (``referee.model.combat.legal.UNIT_DOMAIN``); nor, now, are a negative cap or
#: redirect cap or a multiplier below 1 (printed numbers, issue 20): what only they reach is ``outside_domain``.
RELAXED: dict[str, tuple[int, int]] = {"shield_multiplier": (-1, 3), "redirect_cap": (-5, 100), "cap": (-5, 300),
                                        "forge_core_recovery": (-5, 30), "exalt": (-5, 30), "maim": (-5, 20)}


def validity(variables: Vars, relaxed: bool = False) -> list[Any]:
    """The constraints that make a board a valid scenario (every unit's numbers in bounds)."""
    import z3

    bounds = {**BOUNDS, **RELAXED} if relaxed else BOUNDS
    out = []
    units: dict[str, dict[str, Any]] = {}
    for name, term in variables.created.items():
        owner, _, attribute = name.rpartition(".")
        units.setdefault(owner, {})[attribute] = term
        if attribute in bounds and z3.is_int(term):
            low, high = bounds[attribute]
            out += [term >= low, term <= high]
    for owner, values in units.items():
        alive = values.get("alive", True)
        vitality, maximum = values.get("vitality"), values.get("max_vitality")
        if vitality is not None and maximum is not None:
            out.append(z3.If(alive, z3.And(vitality >= 1, vitality <= maximum), vitality == 0) if is_symbolic(alive)
                       else (z3.And(vitality >= 1, vitality <= maximum) if alive else vitality == 0))
        kinds = [values[k] for k in ("is_tool", "is_hub", "is_boss") if k in values and is_symbolic(values[k])]
        if len(kinds) > 1:
            out.append(z3.AtMost(*kinds, 1))
        if "shield" in values and is_symbolic(alive):
            out.append(z3.Implies(z3.Not(alive), values["shield"] == 0))
    return out


def action_legality(template: Template, variables: Vars) -> list[Any]:
    """What makes the template's damage action a legal one (``referee.model.combat.legal``: a hit from a living
    unit, an overtime tick from none), over the template's own variables; the board's units are ``validity``'s."""
    from referee.model.combat.legal import is_legal_damage_action

    board, action = template.build(variables)  # the same names: the same terms
    if action.get("kind") not in ("damage", "hit"):
        return []
    legal = is_legal_damage_action(board, action)
    return [] if legal is True else [legal]


def templates() -> list[Template]:
    """Every template the combat action kinds declare, in kind order."""
    return [t for kind in KINDS.values() for t in kind.extra.get("templates", list)()]


# --------------------------------------------------------------------------------------
# Branch discovery
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """Where a symbolic branch is decided: the tagged function and the model source line."""

    function: str
    clauses: tuple[str, ...]
    line: str  # module:lineno of the model code that asked
    what: str  # "ite" or "event:<name>"

    @property
    def key(self) -> str:
        return f"{self.function}@{self.line}:{self.what}"


def _model_caller(frame: Any) -> str:
    """The first frame outside ``arith`` that led here: the model line deciding the branch."""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("referee.model") and not module.endswith(".arith"):
            return f"{module.removeprefix('referee.model.')}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


def discover(template: Template) -> tuple[Vars, list[Any], list[tuple[Site, Any]]]:
    """Run a template symbolically; its variables, side conditions and branch points."""
    from referee.model import arith

    codes = _tagged_functions()
    ite_code, emit_code = arith.ite.__code__, EventLog.emit.__code__
    variables = Vars()
    points: list[tuple[Site, Any]] = []
    stack: list[Any] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        code = frame.f_code
        if event == "call":
            if code in codes:
                stack.append((frame, codes[code]))
            elif (code is ite_code or code is emit_code) and stack:
                condition = frame.f_locals.get("condition" if code is ite_code else "when")
                if is_symbolic(condition):
                    name, ids = stack[-1][1]
                    what = "ite" if code is ite_code else f"event:{frame.f_locals.get('name')}"
                    points.append((Site(name, ids, _model_caller(frame.f_back), what), condition))
        elif event == "return" and stack and stack[-1][0] is frame:
            stack.pop()

    with symbolic() as context:
        board, action = template.build(variables)
        kind = KINDS[action["kind"]]
        previous = sys.getprofile()
        sys.setprofile(profile)
        try:
            if template.symbolic_run is not None:
                template.symbolic_run(board, action)
            else:
                kind.run(board, action, DEFAULT)
        finally:
            sys.setprofile(previous)
    return variables, list(context.side_conditions), points


def exercised_branches(scenario: dict[str, Any]) -> list[str]:
    """The branches (``site=true|false``, as :func:`discover` names them) a scenario's concrete model run takes:
    each ``ite`` and guarded event inside a tagged function, with the side its condition fell on. The model runs
    without its fast twin, whose shortcuts decide the same things without those calls."""
    from referee.model.combat import costs, damage

    from .run import decode_scenario, run_actions

    decoded = decode_scenario(scenario)
    taken: dict[str, None] = {}
    twins = damage.FAST_TWIN, costs.FAST_TWIN
    previous = sys.getprofile()
    damage.FAST_TWIN = costs.FAST_TWIN = None
    sys.setprofile(_branch_recorder(taken))
    try:
        run_actions(decoded.state, decoded.actions, decoded.rules)
    finally:
        sys.setprofile(previous)
        damage.FAST_TWIN, costs.FAST_TWIN = twins
    return sorted(taken)


def _branch_recorder(taken: dict[str, None]) -> Callable[[Any, str, Any], None]:
    """A ``sys.setprofile`` function adding to ``taken`` each branch decided inside a tagged function."""
    from referee.model import arith

    codes = _tagged_functions()
    # min_ and max_ decide two ints without calling ite (their concrete path): the same site, their own test
    deciders = {arith.ite.__code__: lambda f: f.get("condition"), EventLog.emit.__code__: lambda f: f.get("when"),
                arith.min_.__code__: lambda f: _concrete(f, lambda a, b: a <= b),
                arith.max_.__code__: lambda f: _concrete(f, lambda a, b: a >= b)}
    stack: list[Any] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        code = frame.f_code
        if event == "call":
            if code in codes:
                stack.append((frame, codes[code][0]))
            elif code in deciders and stack:
                condition = deciders[code](frame.f_locals)
                if condition is not None:
                    what = f"event:{frame.f_locals.get('name')}" if code is EventLog.emit.__code__ else "ite"
                    key = f"{stack[-1][1]}@{_model_caller(frame.f_back)}:{what}"
                    taken[f"{key}={'true' if condition else 'false'}"] = None
        elif event == "return" and stack and stack[-1][0] is frame:
            stack.pop()

    return profile


def _concrete(local: dict[str, Any], test: Callable[[int, int], bool]) -> bool | None:
    """``test(a, b)`` for a ``min_``/``max_`` call on two ints (None: on terms, where it calls ``ite`` itself)."""
    a, b = local.get("a"), local.get("b")
    return test(a, b) if type(a) is int and type(b) is int else None


def _tagged_functions() -> dict[Any, tuple[str, tuple[str, ...]]]:
    """Every tagged model function's code: its name (``combat.armor.compute_percentage``) and clauses."""
    load_all_model_modules()
    codes = {}
    for functions in IMPLEMENTATIONS.values():
        for function in functions:
            code = getattr(function, "__code__", None)
            if code is not None:
                codes[code] = (f"{function.__module__.removeprefix('referee.model.')}.{function.__name__}",
                               tuple(str(c) for c in clauses_of(function)))
    return codes


def _values(variables: Vars, model: Any, ctx: Any) -> dict[str, Any]:
    import z3

    values = {}
    for name, term in variables.created.items():
        value = model.eval(term.translate(ctx), model_completion=True)
        values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
    return values


@dataclass
class Coverage:
    covered: dict[str, str] = field(default_factory=dict)  # branch (key + polarity) -> vector path
    unreachable: set[str] = field(default_factory=set)
    unknown: set[str] = field(default_factory=set)
    #: Branches only inputs outside the protocol's domain take (a negative Shield, a multiplier of 0):
    #: guards of the model that no valid scenario reaches, so no vector is exported for them.
    outside_domain: set[str] = field(default_factory=set)
    sites: dict[str, Site] = field(default_factory=dict)
    failed_templates: list[str] = field(default_factory=list)
    #: Under a profile (``--kinds``/``--features``): branches a scenario outside the profile takes but none inside
    #: it (Z3 proved it for the profile's templates, or only templates the profile leaves out reach the branch).
    outside_profile: set[str] = field(default_factory=set)
    #: Under a profile: the templates it leaves out (their action kind or board shape uses what it excludes).
    templates_outside_profile: list[str] = field(default_factory=list)

    def branches(self) -> list[str]:
        return sorted(f"{key}={polarity}" for key in self.sites for polarity in ("true", "false"))

    def open_branches(self) -> list[str]:
        return [b for b in self.branches() if b not in self.covered and b not in self.unreachable]

    def manifest(self, paths: dict[str, str]) -> dict[str, Any]:
        """The manifest's ``branches`` section, each covered branch with its vector's path."""
        covered = {branch: paths.get(branch, "") for branch in self.covered}
        return {
            "total": len(self.branches()),
            "covered": dict(sorted(covered.items())),
            "unreachable": sorted(self.unreachable),
            "unknown": sorted(self.unknown),
            "outside_domain": sorted(self.outside_domain),
            "templates_not_run": self.failed_templates,
            "outside_profile": sorted(self.outside_profile),
            "sites": {key: list(site.clauses) for key, site in sorted(self.sites.items())},
            "templates_outside_profile": self.templates_outside_profile,
            "note": "unreachable: Z3 proved no scenario of any template takes the branch, within the bounds "
                    "of referee.rulebooks.combat.vectors.BOUNDS widened by RELAXED; outside_domain: only the "
                    "RELAXED inputs (outside what the protocol defines and check sends) take it, so no vector; "
                    "outside_profile: under a --kinds/--features profile, only scenarios outside it take the "
                    "branch (Z3 proved it inside the profile, or only templates the profile leaves out reach it)",
        }


#: The first clause of each branch site found so far: the folder its vectors are filed in.
_SITE_CLAUSE: dict[str, str] = {}


def _concrete_vector(template: Template, values: dict[str, Any], branch: str) -> Vector:
    board, action = template.build(Vars(values))
    scenario = encode_scenario(board, [action], DEFAULT)
    board, events, steps = observe(scenario)
    clauses = clauses_applied(steps)
    # filed under the clause of the branch's function when the concrete run applies it (a symbolic
    # run evaluates both sides of an ``ite``, so the function may lie on the path not taken)
    site_clause = _SITE_CLAUSE.get(branch.rsplit("=", 1)[0], "")
    primary = site_clause if site_clause in clauses else (clauses[0] if clauses else "")
    return Vector(scenario, encode_observation(board, events), clauses, branch, template.name, primary=primary)


class _Defaults(dict):
    """Concrete values for a template's structure alone: every unit field at its default, any other integer 1
    (an amount, a cost) and any other Boolean False (``Vars`` asks with the default 0 or False)."""

    def get(self, name: str, default: Any = None) -> Any:
        if name in self:
            return self[name]
        other = default if isinstance(default, bool) else 1
        return UNIT_DEFAULTS.get(name.rpartition(".")[2], other)


def template_outside(template: Template, profile: Any) -> str | None:
    """Why a template's structure (its action kind, the flags, lanes and links its board shape fixes) lies outside
    a ``--kinds``/``--features`` profile; None: inside (or no profile)."""
    if profile is None:
        return None
    board, action = template.build(Vars(_Defaults()))
    return profile.reason_to_skip(encode_scenario(board, [action], DEFAULT))


def profile_constraints(variables: Vars, profile: Any) -> list[Any]:
    """What keeps a template's numbers inside a profile: every field of a feature it leaves out at its default,
    Armor at 0 or more without ``negative_armor``, no Dormant-reaching hit without ``dormant``."""
    import z3

    if profile is None or profile.features is None:
        return []
    off = frozenset(FEATURES) - profile.features
    fields_off = off_fields(off)
    out = []
    for name, term in variables.created.items():
        owner, _, attribute = name.rpartition(".")
        if not is_symbolic(term):
            continue
        if owner != "action" and attribute in fields_off and attribute in UNIT_DEFAULTS:
            out.append(term == UNIT_DEFAULTS[attribute])
        if owner != "action" and attribute == "armor" and "negative_armor" in off:
            out.append(term >= 0)
        if name == "action.allows_dormant" and "dormant" in off:
            out.append(z3.Not(term))
    return out


def _solvers(ctx: Any, variables: Vars, side: list[Any], profile: Any) -> dict[str, Any]:
    """The template's solvers: ``valid`` (in bounds, inside the profile), ``relaxed`` (RELAXED bounds, inside the
    profile) and, under a profile, ``free`` (in bounds, any feature): the last tells a branch the profile shuts
    from one no scenario takes."""
    import z3

    inside = profile_constraints(variables, profile)
    wanted = {"valid": (False, inside), "relaxed": (True, inside)}
    if inside:
        wanted["free"] = (False, [])
    out = {}
    for name, (relaxed, extra) in wanted.items():
        solver = z3.Solver(ctx=ctx)
        solver.set("rlimit", RLIMIT)
        solver.set("random_seed", 0)
        solver.set("timeout", SAFETY_TIMEOUT_MS)
        facts = [*side, *validity(variables, relaxed), *extra]
        solver.add(*[(z3.BoolVal(f) if isinstance(f, bool) else f).translate(ctx) for f in facts])
        out[name] = solver
    return out


def _ask(solver: Any, goal: Any) -> tuple[str, Any]:
    """``(sat | unsat | unknown, model)`` for one goal."""
    import z3

    solver.push()
    solver.add(goal)
    result = solver.check()
    model = solver.model() if result == z3.sat else None
    solver.pop()
    return ("sat" if result == z3.sat else "unsat" if result == z3.unsat else "unknown"), model


def classify(solvers: dict[str, Any], goal: Any, models: list[Any], shut: bool = False) -> tuple[str, Any]:
    """A branch's answer and its model: ``sat`` (a scenario inside the profile takes it), ``outside`` (only inputs
    outside the protocol's domain do), ``profile`` (only scenarios outside the profile do), ``unsat``, ``unknown``.
    ``shut``: an earlier template found a scenario outside the profile taking it (no need to ask again)."""
    import z3

    model = next((m for m in models if z3.is_true(m.eval(goal, model_completion=True))), None)
    if model is not None:
        return "sat", model
    answer, model = _ask(solvers["valid"], goal)
    if answer == "sat":
        models.append(model)
        return "sat", model
    relaxed, _ = _ask(solvers["relaxed"], goal)
    if relaxed == "sat":
        return "outside", None
    if "free" in solvers and (shut or _ask(solvers["free"], goal)[0] == "sat"):
        return "profile", None
    return relaxed, None


def _shape_vector(template: Template, variables: Vars, solvers: dict[str, Any], models: list[Any], ctx: Any) -> Vector | None:
    """One vector of a template that found no new branch: its board shape is a case of its own (a Tool first in
    a Bloodletting reading order takes no branch the ally-pays shape did not), so every shape gets one."""
    import z3

    model = models[0] if models else None
    if model is None:
        answer, model = _ask(solvers["valid"], z3.BoolVal(True, ctx))
    if model is None:
        return None
    return _concrete_vector(template, _values(variables, model, ctx), f"shape: {template.name}")


def search_template(template: Template, coverage: Coverage, profile: Any, say: Callable[[str], None]) -> list[Vector]:
    """A vector for every branch of the template not yet covered (Z3), inside the profile; at least one."""
    import z3

    start = time.perf_counter()
    try:
        variables, side, points = discover(template)
    except Exception as error:  # a template the symbolic run cannot take: report, go on
        first_line = str(error).splitlines()[0][:160] if str(error) else ""
        say(f"  {template.name}: symbolic run failed ({type(error).__name__}: {first_line})")
        coverage.failed_templates.append(template.name)
        return []
    # A fresh Z3 context per template: Z3's speed on these nonlinear queries depends on
    # what the process asked before (measured: 17 s alone, no answer in 12 minutes after
    # the proof tests had run in the same process), and the rlimit does not always stop it.
    ctx = z3.Context()
    solvers = _solvers(ctx, variables, [*side, *action_legality(template, variables)], profile)
    models: list[Any] = []
    found: list[Vector] = []
    for site, condition in points:
        coverage.sites.setdefault(site.key, site)
        _SITE_CLAUSE.setdefault(site.key, site.clauses[0] if site.clauses else "")
        for polarity in ("true", "false"):
            branch = f"{site.key}={polarity}"
            if branch not in coverage.covered:
                goal = (condition if polarity == "true" else z3.Not(condition)).translate(ctx)
                answer = classify(solvers, goal, models, branch in coverage.outside_profile)
                found += _file_branch(template, variables, branch, answer, coverage, ctx, say)
    if not found:
        shape = _shape_vector(template, variables, solvers, models, ctx)
        found += [shape] if shape is not None else []
    say(f"  {template.name}: {len(points)} branch points, {len(found)} new vectors ({time.perf_counter() - start:.1f} s)")
    return found


def _file_branch(template: Template, variables: Vars, branch: str, answer: tuple[str, Any], coverage: Coverage,
                 ctx: Any, say: Callable[[str], None]) -> list[Vector]:
    """Record a branch's answer in the coverage; its vector when a scenario takes it."""
    verdict, model = answer
    if verdict != "sat":
        {"outside": coverage.outside_domain, "profile": coverage.outside_profile,
         "unsat": coverage.unreachable}.get(verdict, coverage.unknown).add(branch)
        return []
    try:
        vector = _concrete_vector(template, _values(variables, model, ctx), branch)
    except Exception as error:
        say(f"  {template.name}: {branch}: the model refused Z3's input ({error})")
        coverage.unknown.add(branch)
        return []
    coverage.covered[branch] = ""
    return [vector]


def note_sites(template: Template, coverage: Coverage) -> set[str]:
    """The branch sites of a template the profile leaves out (a symbolic run, no Z3): their branches are outside
    the profile unless a template inside it covers them."""
    try:
        _, _, points = discover(template)
    except Exception:  # listed as not run, like any template the symbolic run cannot take
        coverage.failed_templates.append(template.name)
        return set()
    for site, _ in points:
        coverage.sites.setdefault(site.key, site)
        _SITE_CLAUSE.setdefault(site.key, site.clauses[0] if site.clauses else "")
    return {site.key for site, _ in points}


def settle(coverage: Coverage, shut: set[str]) -> None:
    """Each branch in one list: covered first, then unknown, outside the domain, outside the profile, unreachable."""
    covered = set(coverage.covered)
    coverage.unknown -= covered
    coverage.outside_domain -= covered
    coverage.unknown -= coverage.outside_domain
    open_by_shut = {f"{key}={p}" for key in shut for p in ("true", "false")} - covered
    coverage.outside_profile = (coverage.outside_profile | open_by_shut) - covered - coverage.unknown - coverage.outside_domain
    coverage.unreachable -= covered | coverage.unknown | coverage.outside_domain | coverage.outside_profile


def generate(progress: Callable[[str], None] | None = None, only: str | None = None,
             profile: Any = None) -> tuple[list[Vector], Coverage]:
    """Every branch vector Z3 can find across the templates, searched inside ``profile`` (a
    :class:`referee.vectors.suite.Selection`; None: everything), one vector per board shape, then the boundary cases."""
    say = progress or (lambda text: None)
    vectors: list[Vector] = []
    coverage = Coverage()
    shut: set[str] = set()
    for template in [t for t in templates() if only is None or t.name.startswith(only)]:
        if template_outside(template, profile) is not None:
            coverage.templates_outside_profile.append(template.name)
            shut |= note_sites(template, coverage)
            continue
        vectors += search_template(template, coverage, profile, say)
    settle(coverage, shut)
    if only is None:
        vectors += boundary_vectors()
    return vectors, coverage


# --------------------------------------------------------------------------------------
# Hand-written boundary cases
# --------------------------------------------------------------------------------------


def _scenario(units: list[dict[str, Any]], actions: list[dict[str, Any]],
              ruleset: dict[str, Any] | None = None) -> dict[str, Any]:
    board = Board(tuple(Unit(**u) for u in units))
    return {"protocol": PROTOCOL, "ruleset": {**DEFAULT.to_json(), **(ruleset or {})},
            "board": [unit_to_json(u) for u in board.units], "actions": actions}


def _hit(amount: int, target: str = "a", source: str | None = "b", kind: str = "damage", lane: str = "hit") -> dict:
    return {"kind": kind, "target": target, "amount": amount, "source": source, "damage_kind": lane,
            "allows_dormant": False, "riposte_rolls": [True]}


ENEMY = {"uid": "b", "side": 1, "col": 1}
ALLY = {"uid": "c", "side": 0, "col": 2}


def _debuff(debuff: str, amount: int, target: str = "a") -> dict:
    return {"kind": "armor_debuff", "target": target, "debuff": debuff, "amount": amount}


def _cost(amount: int, cost_kind: str, payer: str = "a") -> dict:
    return {"kind": "cost", "payer": payer, "amount": amount, "cost_kind": cost_kind, "beneficiary": None}


def _line(effect: str, amount: int, lane: str | None = None, **more: Any) -> dict:
    return {"effect": effect, "amount": amount, **({"lane": lane} if lane else {}), **more}


def _ability(lines: list[dict], targets: tuple[str, ...] = ("t",)) -> dict:
    return {"kind": "ability", "caster": "c", "targets": list(targets),
            "ability": {"name": "", "numbers": {}, "lines": lines}, "riposte_rolls": [True]}


#: A caster and an ally on side 0; a target its hit kills and a second enemy on side 1.
_ABILITY_BOARD = [{"uid": "c", "side": 0, "col": 0}, {"uid": "a", "side": 0, "col": 1, "vitality": 50},
                  {"uid": "t", "side": 1, "col": 0, "vitality": 30}, {"uid": "u", "side": 1, "col": 1, "vitality": 80}]


def _bloodletting(caster: str, cost: int, target: str = "b") -> dict:
    return {"kind": "bloodletting", "caster": caster, "cost": cost,
            "hits": [{"target": target, "amount": 10, "damage_kind": "hit", "allows_dormant": False,
                      "riposte_rolls": [True]}]}

#: Boundary cases, by hand: where engines go wrong. Each: (name, units, actions), or (name, units, actions,
#: ruleset options) for a case a non-default reading reaches.
BOUNDARY_CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = [
    ("armor-exact-third-87-into-81", [{"uid": "a", "armor": 81}, ENEMY], [_hit(87)]),
    ("armor-one-below-exact-third", [{"uid": "a", "armor": 81}, ENEMY], [_hit(86)]),
    ("armor-one-above-exact-third", [{"uid": "a", "armor": 81}, ENEMY], [_hit(88)]),
    ("armor-square-minus-one", [{"uid": "a", "armor": 80}, ENEMY], [_hit(87)]),
    ("armor-square-plus-one", [{"uid": "a", "armor": 82}, ENEMY], [_hit(87)]),
    ("armor-flat-step-exact", [{"uid": "a", "armor": 25}, ENEMY], [_hit(50)]),
    ("armor-zero", [{"uid": "a", "armor": 0}, ENEMY], [_hit(40)]),
    ("armor-negative-mirror", [{"uid": "a", "armor": -81}, ENEMY], [_hit(29)]),
    ("armor-negative-non-square", [{"uid": "a", "armor": -7}, ENEMY], [_hit(33)]),
    ("insurance-24", [{"uid": "a", "insurance": 2}, ENEMY], [_hit(24)]),
    ("insurance-25", [{"uid": "a", "insurance": 2}, ENEMY], [_hit(25)]),
    ("insurance-26", [{"uid": "a", "insurance": 2}, ENEMY], [_hit(26)]),
    ("insurance-50-two-points", [{"uid": "a", "insurance": 2}, ENEMY], [_hit(50)]),
    ("subrogated-26-payback", [{"uid": "a", "subrogated": 1, "insurance": 1}, ENEMY], [_hit(26)]),
    ("cap-equal-to-damage", [{"uid": "a", "has_cap": True, "cap": 40}, ENEMY], [_hit(40)]),
    ("cap-one-below-damage", [{"uid": "a", "has_cap": True, "cap": 39}, ENEMY], [_hit(40)]),
    ("vitality-equal-to-damage", [{"uid": "a", "vitality": 40}, ENEMY], [_hit(40)]),
    ("vitality-one-above-damage", [{"uid": "a", "vitality": 41}, ENEMY], [_hit(40)]),
    ("defy-death-exact-lethal", [{"uid": "a", "vitality": 40, "defy_death": True}, ENEMY], [_hit(40)]),
    ("zero-damage", [{"uid": "a"}, ENEMY], [_hit(0)]),
    ("negative-damage", [{"uid": "a"}, ENEMY], [_hit(-5)]),
    ("empty-shield", [{"uid": "a", "shield": 0}, ENEMY], [_hit(30)]),
    ("shield-exactly-covers", [{"uid": "a", "shield": 30}, ENEMY], [_hit(30)]),
    ("shield-one-short", [{"uid": "a", "shield": 29}, ENEMY], [_hit(30)]),
    ("full-shield", [{"uid": "a", "shield": 10000}, ENEMY], [_hit(30)]),
    ("shield-multiplier-break-odd", [{"uid": "a", "shield": 5}, {**ENEMY, "shield_multiplier": 2}], [_hit(10)]),
    ("burn-ignores-armor", [{"uid": "a", "armor": 400}, ENEMY], [_hit(20, lane="burn")]),
    ("prismbroken-odd-tick", [{"uid": "a", "prismbroken": True, "rune_tick_reduction": 3}, ENEMY],
     [_hit(7, lane="venom")]),
    ("dormant-discards", [{"uid": "a", "dormant": True}, ENEMY], [_hit(30)]),
    ("dormant-tick-lands", [{"uid": "a", "dormant": True}, ENEMY], [_hit(30, lane="burn")]),
    ("cost-equal-to-vitality", [{"uid": "a", "vitality": 30, "shield": 50}],
     [{"kind": "cost", "payer": "a", "amount": 30, "cost_kind": "bloodletting", "beneficiary": None}]),
    ("cost-over-vitality-interest", [{"uid": "a", "vitality": 30}],
     [{"kind": "cost", "payer": "a", "amount": 31, "cost_kind": "interest", "beneficiary": None}]),
    ("cost-zero", [{"uid": "a"}], [{"kind": "cost", "payer": "a", "amount": 0, "cost_kind": "bloodletting",
                                     "beneficiary": None}]),
    ("cost-negative", [{"uid": "a"}], [{"kind": "cost", "payer": "a", "amount": -5, "cost_kind": "interest",
                                         "beneficiary": None}]),
    ("self-destruct-with-shield-and-defy", [{"uid": "a", "shield": 20, "defy_death": True}],
     [{"kind": "cost", "payer": "a", "amount": 0, "cost_kind": "self_destruct", "beneficiary": None}]),
    ("thorns-on-insurance-swallowed-hit", [{"uid": "a", "insurance": 1, "thorns": 3, "retort": 4}, ENEMY],
     [_hit(20, kind="hit")]),
    ("reflect-5-percent-floor", [{"uid": "a", "is_boss": True, "reflect": True}, ENEMY], [_hit(39, kind="hit")]),
    # Cases branch coverage does not give: a branch is taken once, at whatever numbers Z3 picks, so a rule that
    # only shows at a boundary (Armor crossing 0) or in a board shape (an ally source, a boss first in reading
    # order, a kill before a count) needs its own vector. Each is read off the rule it names.
    ("crush-drives-armor-negative-500.2e", [{"uid": "a", "armor": 10}], [_debuff("crush", 25)]),
    ("repossess-from-zero-armor-500.2e", [{"uid": "a", "armor": 0}], [_debuff("repossess", 7)]),
    ("cost-resets-bolster-500.8d", [{"uid": "a", "bolster": 5, "adrenaline": 3, "momentum": 2}],
     [_cost(10, "interest")]),
    ("dormant-payer-pays-interest-500.8e", [{"uid": "a", "dormant": True}], [_cost(10, "interest")]),
    ("dormant-payer-pays-self-destruct-500.8e", [{"uid": "a", "dormant": True}], [_cost(0, "self_destruct")]),
    ("armor-reduces-hit-to-nothing-no-thorns-500.7d", [{"uid": "a", "armor": 100, "thorns": 3, "riposte": 4}, ENEMY],
     [_hit(5, kind="hit")]),
    ("shield-swallows-hit-no-thorns-500.7d", [{"uid": "a", "shield": 50, "thorns": 3, "riposte": 4}, ENEMY],
     [_hit(30, kind="hit")]),
    ("ally-hit-never-retaliated-500.6h", [{"uid": "a", "thorns": 3, "riposte": 4, "retort": 2}, ALLY],
     [_hit(20, source="c", kind="hit")]),
    ("reflect-skips-attacker-armor-500.7j", [{"uid": "a", "is_boss": True, "reflect": True},
                                            {**ENEMY, "armor": 400}], [_hit(200, kind="hit")]),
    ("bloodletting-boss-ally-first-skipped-800.4c", [{"uid": "a", "row": 1}, {**ALLY, "col": 0, "is_boss": True},
                                                     {"uid": "d", "side": 0, "col": 1}, ENEMY],
     [_bloodletting("a", 12)]),
    ("bloodletting-tool-first-fails-800.4d", [{"uid": "a", "row": 1}, {**ALLY, "col": 0, "is_tool": True},
                                             {"uid": "d", "side": 0, "col": 1}, ENEMY], [_bloodletting("a", 12)]),
    ("bloodletting-hub-first-fails-800.4d", [{"uid": "a", "row": 1}, {**ALLY, "col": 0, "is_hub": True},
                                            {"uid": "d", "side": 0, "col": 1}, ENEMY], [_bloodletting("a", 12)]),
    ("ability-kill-then-count-enemies-400.8a-400.8b", _ABILITY_BOARD,
     [_ability([_line("damage", 40, "hit"), _line("restore", 10, "after_hit", to="allies", per="enemy")])]),
    ("ability-restore-odd-prevented-consumes-ceil-500.3d",
     [{"uid": "c", "side": 0, "col": 0}, {"uid": "a", "side": 0, "col": 1, "vitality": 50, "maim": 3}],
     [_ability([_line("restore", 5, to="allies")], targets=())]),
    ("recover-refused-entrapped-500.3g", [{"uid": "a", "vitality": 40, "entrapped": True}],
     [{"kind": "recover", "target": "a", "amount": 30, "lane": "heal"}]),
]
#: A kind whose vectors are hand-written declares them in its ``extra["boundary_cases"]`` (``kinds/ability.py``).
BOUNDARY_CASES += [case for kind in KINDS.values() for case in kind.extra.get("boundary_cases", ())]


def boundary_vectors() -> list[Vector]:
    """The hand-written boundary cases, each expected observation from the model."""
    out = []
    for name, units, actions, *options in BOUNDARY_CASES:
        if any(a["kind"] not in KINDS for a in actions):
            continue
        scenario = _scenario(units, actions, *options)
        board, events, steps = observe(scenario)
        clauses = clauses_applied(steps)
        out.append(Vector(scenario, encode_observation(board, events), clauses, f"boundary: {name}", "boundary",
                          primary=clauses[0] if clauses else "", label=name))
    return out
