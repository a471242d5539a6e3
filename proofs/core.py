"""Theorems over the single-source encoding, and how one obligation is decided.

A theorem is a Python function of :class:`Vars` that returns an :class:`Obligation`:
assumptions and a claim, both built by running model code. Run with Z3 variables it is
the encoding; run with the concrete values of a Z3 model it is the model itself, which
is how a counterexample is replayed before it is shown (DESIGN, proofs/).

Three questions are asked of every theorem, each in a fresh process and a fresh Z3
context, under a resource limit (``rlimit``) so that the verdict is the same on every
machine:

* proof: ``assume and not claim`` is unsatisfiable;
* vacuity: ``assume`` alone is satisfiable (otherwise the theorem proves nothing);
* each mutant: with a deliberate bug patched into the model, a counterexample exists.

An ``unknown`` is retried with other random seeds and is never reported as proved.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from referee.model.arith import SymbolicBranchError, and_, is_symbolic, not_, or_, single_source, symbolic
from referee.model.clauses import ClauseId, parse_clause_id
from referee.model.readings import READING_PREFIX, readings_in

from .readings import (OPTIONS, ambient, current_reading, domain, parse_region, reading_constant, region_point,
                       region_term, ruleset_for, symbolic_option)
from .smt import DEFAULT_SOLVER, SOLVERS, WITNESS_ONLY, Query, decide, query_text, variables_of

#: The default resource limit for one check (Z3 ``rlimit`` units, machine independent).
DEFAULT_RLIMIT = 20_000_000
#: Seeds tried in turn while the answer is ``unknown``.
RETRY_SEEDS = (0, 1, 2)



T = TypeVar("T")

# --------------------------------------------------------------------------------------
# Variables: symbolic while proving, concrete while replaying
# --------------------------------------------------------------------------------------


class Vars:
    """Named inputs of a theorem: Z3 constants, or the values of a counterexample."""

    def __init__(self, values: dict[str, Any] | None = None, *, strict: bool = False,
                 pinned: dict[str, Any] | None = None) -> None:
        self._values = values
        self._strict = strict
        #: The readings this run fixes (an engine's, or one reading of a forked option); the rest are free.
        self.pinned = dict(pinned or {})
        #: For a lemma's instance, the theorem's variables: its rulesets and readings are the theorem's.
        self._outer: Vars | None = None
        self.created: dict[str, Any] = {}
        self.lemmas_used: list[str] = []
        self._facts: list[Any] = []

    @property
    def symbolic(self) -> bool:
        return self._values is None

    @property
    def values(self) -> dict[str, Any]:
        """The counterexample's values being replayed (empty while proving)."""
        return self._values or {}

    def int(self, name: str) -> Any:
        return self._get(name, "int")

    def bool(self, name: str) -> Any:
        return self._get(name, "bool")

    def ruleset(self, **pinned: Any) -> Any:
        """The combat ruleset of this run: ``pinned`` options fixed, every other one over all its readings
        (a variable while proving, the counterexample's reading while replaying; ``proofs/readings.py``)."""
        from referee.model.combat.ruleset import Ruleset

        if self._outer is not None:
            return self._outer.ruleset(**pinned)
        return ruleset_for(Ruleset, self, {**self.pinned, **pinned})

    def play_rules(self, **pinned: Any) -> Any:
        """The play rules of this run, as :meth:`ruleset` gives the combat ruleset."""
        from referee.model.play.rules import PlayRules

        if self._outer is not None:
            return self._outer.play_rules(**pinned)
        return ruleset_for(PlayRules, self, {**self.pinned, **pinned})

    def _get(self, name: str, sort: str) -> Any:
        if name in self.created:
            return self.created[name]
        if self._values is None:
            import z3

            value = z3.Int(name) if sort == "int" else z3.Bool(name)
        elif self._outer is not None and name.startswith(READING_PREFIX):
            value = self._outer._get(name, sort)  # a lemma instance reads the readings of the theorem using it
        elif self._strict and name not in self._values:
            raise KeyError(f"lemma variable {name!r} was not given a term (given: {', '.join(self._values)})")
        else:
            default = 0 if sort == "int" else False
            value = self._values.get(name, default)
        self.created[name] = value
        return value

    @property
    def facts(self) -> list[Any]:
        return self._facts

    def lemma(self, lemma: Theorem, **terms: Any) -> Any:
        """The proved theorem ``lemma`` instantiated at ``terms``: its ``assume => claim``.

        A theorem is universally quantified over its variables, so once proved it holds at
        any terms; the theorem using it must name it in ``lemmas=`` and is reported proved
        only when the lemma is. Inside the encoding, equal ``least_such_that`` calls share
        one fresh integer, so the lemma speaks about the very terms the theorem uses.
        """
        self.lemmas_used.append(lemma.name)
        inner = Vars(terms, strict=True, pinned=self.pinned)
        inner._outer = self
        obligation = lemma.build(inner)
        # The lemma's own lemma instances are proved facts, not hypotheses to escape by; it is proved
        # outside its unless regions only, so inside one its instance says nothing.
        exempt = [region_term(self, region) for region in lemma.unless]
        fact = and_(*inner.facts, or_(*exempt, not_(obligation.assume), obligation.claim))
        self._facts.append(fact)
        return fact

    def record(self, cls: type[T], prefix: str, **fixed: Any) -> T:
        """A ``cls`` record whose every int and bool field is a variable ``prefix.field``.

        ``fixed`` pins fields to given values (for example ``redirect_to=None``); a rulebook
        builds its own symbolic records (a combat unit, a play object) on this.
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in fixed:
                continue
            if isinstance(f.default, bool):
                values[f.name] = self.bool(f"{prefix}.{f.name}")
            elif isinstance(f.default, int):
                values[f.name] = self.int(f"{prefix}.{f.name}")
        return cls(**values, **fixed)


# --------------------------------------------------------------------------------------
# Theorems and mutants
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Obligation:
    """What a theorem asks: under ``assume``, ``claim`` holds."""

    assume: Any
    claim: Any


@dataclass(frozen=True)
class Mutant:
    """A deliberate bug: ``target`` (``module:attribute``) replaced by ``replacement``."""

    name: str
    target: str
    replacement: Callable[..., Any]
    description: str = ""
    #: Further ``(target, replacement)`` pairs for a bug that spans two functions
    #: (for example, the flat reduction moved before the percentage).
    also: tuple[tuple[str, Callable[..., Any]], ...] = ()
    #: The solver configuration (``proofs.smt.SOLVERS``) for this mutant's check; ``None``: the theorem's.
    solver: str | None = None
    #: A narrower space in which to look for the kill: extra assumptions over the theorem's
    #: variables, added to this mutant's check only. Sound for a kill (a witness inside the narrower
    #: space is one of the whole), and replayed on the model like any counterexample; the theorem's
    #: own proof and vacuity never see it.
    search_within: Callable[["Vars"], Any] | None = None
    #: The readings its kill is searched at (a region, ``proofs/readings.py``), every other option at its default:
    #: ``None`` is the default readings. A bug is a bug under every reading, so a kill at one is a kill; a mutant
    #: that breaks a theorem only under another reading names it here, and only the every-reading proof sees it.
    under: str | None = None

    def at_reading(self, option: str, reading: Any) -> Mutant:
        """This bug gated to one reading: under ``option = reading`` the bug, under every other reading the model
        itself. Only a proof over that reading can refute it; a proof at the default readings never sees it."""
        def gate(target: str, replacement: Callable[..., Any]) -> Callable[..., Any]:
            module_name, _, attribute = target.partition(":")
            original = getattr(importlib.import_module(module_name), attribute)

            def gated(*args: Any, **kwargs: Any) -> Any:
                active = current_reading(option) == reading
                return (replacement if active is True else original)(*args, **kwargs)
            return gated

        where = f"{option}={reading}"
        return Mutant(f"{self.name}@{where}", self.target, gate(self.target, self.replacement),
                      f"{self.description}, under {where} only", tuple((t, gate(t, r)) for t, r in self.also),
                      self.solver, self.search_within, under=where)

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        """Patch every target, and every ``referee.*`` alias of it made by ``from m import f``."""
        patched: list[tuple[Any, str, Any]] = []
        try:
            stack = contextlib.ExitStack()
            stack.enter_context(single_source())  # the patched rules themselves run, never a fast twin
            for target, replacement in ((self.target, self.replacement), *self.also):
                for owner, alias, original in _bindings(target):
                    setattr(owner, alias, replacement)
                    patched.append((owner, alias, original))
            yield
        finally:
            for owner, alias, original in reversed(patched):
                setattr(owner, alias, original)
            stack.close()


def _bindings(target: str) -> list[tuple[Any, str, Any]]:
    """Where ``module:attribute`` is bound: its module, and model modules that imported it.

    Only ``referee.model.*`` aliases are patched: a theorem module may keep the original
    (to build a mutant from it), and patching that copy would make the mutant call itself.
    """
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    original = getattr(module, attribute)
    found = [(module, attribute, original)]
    for other in list(sys.modules.values()):
        name = getattr(other, "__name__", "")
        if other is module or not name.startswith("referee.model"):
            continue
        for alias, value in list(vars(other).items()):
            if value is original:
                found.append((other, alias, original))
    return found


@dataclass(frozen=True)
class Theorem:
    """A named invariant over the encoding, with the clauses it speaks for."""

    name: str
    clauses: tuple[ClauseId, ...]
    statement: str
    build: Callable[[Vars], Obligation]
    mutants: tuple[Mutant, ...]
    bound: str | None = None
    rlimit: int = DEFAULT_RLIMIT
    module: str = ""
    #: Names of the proved theorems this one instantiates with :meth:`Vars.lemma`.
    lemmas: tuple[str, ...] = ()
    #: Model functions (``module:function``) encoded as uninterpreted functions (see :func:`theorem`).
    abstract: tuple[str, ...] = ()
    #: The solver configuration (``proofs.smt.SOLVERS``) deciding its checks.
    solver: str = DEFAULT_SOLVER
    #: The readings it is not claimed under (each a region, ``proofs/readings.py``): its explicit precondition.
    #: Each must still fail there (a replayed counterexample), so an exception never goes stale.
    unless: tuple[tuple[tuple[str, str, Any], ...], ...] = ()


THEOREMS: dict[str, Theorem] = {}


def check_registrable(build: Callable[[Vars], Obligation], mutants: Any, target: dict[str, Theorem]) -> None:
    """A theorem has a mutant, a docstring (its statement) and a name no other theorem has."""
    if not mutants:
        raise ValueError(f"theorem {build.__name__} needs at least one mutant")
    if not (build.__doc__ or "").strip():
        raise ValueError(f"theorem {build.__name__} needs a one-sentence docstring")
    if build.__name__ in target:
        raise ValueError(f"duplicate theorem name {build.__name__}")


def check_solvers(build: Callable[[Vars], Obligation], solver: str, mutants: Any) -> None:
    """Every solver a theorem or its mutants name is known, and a witness-only solver never proves."""
    for name in (solver, *(m.solver for m in mutants if m.solver)):
        if name not in SOLVERS:
            raise ValueError(f"theorem {build.__name__}: unknown solver {name!r} (known: {', '.join(SOLVERS)})")
    if solver in WITNESS_ONLY:
        raise ValueError(f"theorem {build.__name__}: solver {solver!r} finds witnesses only, it cannot prove")


def theorem(
    *clauses: str,
    mutants: tuple[Mutant, ...] | list[Mutant],
    bound: str | None = None,
    rlimit: int = DEFAULT_RLIMIT,
    registry: dict[str, Theorem] | None = None,
    lemmas: tuple[Theorem, ...] | list[Theorem] = (),
    abstract: tuple[str, ...] | list[str] = (),
    solver: str = DEFAULT_SOLVER,
    unless: tuple[str, ...] | list[str] = (),
) -> Callable[[Callable[[Vars], Obligation]], Theorem]:
    """Register a theorem; its name is the function's, its statement the docstring.

    ``abstract`` names model functions (``module:function``, integer arguments) that the
    encoding replaces by uninterpreted functions, so Z3 reasons only from what the
    theorem's ``lemmas`` say about them. That over-approximates: a proof holds for every
    function meeting the lemma instances, the model's among them. A counterexample may
    not be the model's, and replay reports it as an ``encoding-defect``, never as real.

    ``unless`` names the readings the theorem is not claimed under, each a region such as
    ``"tick_share_rounding=remainder_to_first"`` (``proofs/readings.py``): it is proved under every
    other reading, and under each region a counterexample must exist and replay.

    ``registry`` defaults to :data:`THEOREMS`, the suite ``referee prove`` runs; tests of
    the runner pass their own so that their deliberately false theorems stay out of it.
    """
    target = THEOREMS if registry is None else registry

    def register(build: Callable[[Vars], Obligation]) -> Theorem:
        check_registrable(build, mutants, target)
        check_solvers(build, solver, mutants)
        thm = Theorem(name=build.__name__, clauses=tuple(parse_clause_id(c) for c in clauses),
                      statement=" ".join(build.__doc__.split()), build=build, mutants=tuple(mutants), bound=bound,
                      rlimit=rlimit, module=build.__module__, lemmas=tuple(lemma.name for lemma in lemmas),
                      abstract=tuple(abstract), solver=solver, unless=tuple(parse_region(r) for r in unless))
        target[thm.name] = thm
        return thm

    return register


# --------------------------------------------------------------------------------------
# Deciding one question
# --------------------------------------------------------------------------------------

#: Every status a :class:`Verdict` can carry. Only ``proved``, ``satisfiable`` and
#: ``killed`` are good answers to their question; everything else fails the suite.
STATUSES = (
    "proved",  # proof: no counterexample exists
    "counterexample",  # proof: a counterexample exists and replays through the model
    "satisfiable",  # vacuity: the assumptions have a witness
    "vacuous",  # vacuity: the assumptions are contradictory, the theorem says nothing
    "killed",  # mutant: the theorem refutes the deliberate bug (a replayed counterexample)
    "survived",  # mutant: the theorem still holds with the bug patched in
    "unknown",  # any question: no answer within the rlimit for any seed; never a pass
    "encoding-defect",  # Z3's counterexample does not replay through the model
    "error",  # building the encoding raised
    "confirmed",  # exception: the theorem fails under its stated exception (a replayed counterexample)
    "stale",  # exception: the theorem holds under its stated exception too, which is then not needed
)


@dataclass
class Attempt:
    """One solver run: the seed, Z3's answer, and the resource count it used."""

    seed: int
    answer: str  # sat | unsat | unknown
    rlimit_used: int | None
    reason: str = ""


@dataclass
class Verdict:
    """The answer to one question about one theorem (proof, vacuity, or a mutant)."""

    status: str
    seconds: float
    seed: int | None = None
    counterexample: dict[str, Any] | None = None
    detail: str = ""
    rlimit_used: int | None = None
    rlimit: int | None = None
    attempts: list[Attempt] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def _encode(thm: Theorem, mutant: Mutant | None, pinned: dict[str, Any] | None = None,
            exact: bool = False) -> tuple[Vars, Obligation, list[Any]]:
    """The theorem run symbolically: its variables, its obligation, and the side conditions that define it.

    ``exact`` (and any mutant) leaves out the theorem's abstractions: they prove, and their spurious
    counterexamples would only hide whether a bug is caught or an exception really fails."""
    with symbolic() as context:
        variables, obligation = _build(thm, mutant, dict(pinned or {}), context, exact or mutant is not None)
    undeclared = sorted(set(variables.lemmas_used) - set(thm.lemmas))
    if undeclared:
        raise ValueError(f"theorem {thm.name} uses lemmas it does not declare in lemmas=: {', '.join(undeclared)}")
    bounds = domain(variables)  # nothing for a theorem that reads no integer option: its text is unchanged
    return variables, obligation, [*context.side_conditions, *([] if bounds is True else [bounds])]


def _build(thm: Theorem, mutant: Mutant | None, pinned: dict[str, Any], context: Any,
           exact: bool) -> tuple[Vars, Obligation]:
    """One run over every reading; where the model branches on a reading in Python, one run per reading, joined."""
    mark = len(context.side_conditions)
    try:
        return _build_once(thm, mutant, pinned, exact)
    except SymbolicBranchError as error:
        option = next((o for o in readings_in(error.term) if o in OPTIONS and o not in pinned), None)
        if option is None:
            raise
        del context.side_conditions[mark:]  # the abandoned run's definitions
    parts = {reading: _build(thm, mutant, {**pinned, option: reading}, context, exact) for reading in OPTIONS[option]}
    return _joined(option, parts, pinned)


def _build_once(thm: Theorem, mutant: Mutant | None, pinned: dict[str, Any], exact: bool) -> tuple[Vars, Obligation]:
    variables = Vars(pinned=pinned)
    with contextlib.ExitStack() as stack:
        stack.enter_context(ambient(variables))
        if mutant is not None:
            stack.enter_context(mutant.applied())
        for target in () if exact else thm.abstract:
            stack.enter_context(_uninterpreted(target))
        if thm.lemmas:
            stack.enter_context(_shared_least_such_that())
        obligation = thm.build(variables)
    return variables, obligation


def _joined(option: str, parts: dict[str, tuple[Vars, Obligation]], pinned: dict[str, Any]) -> tuple[Vars, Obligation]:
    """The runs of each reading of ``option`` as one obligation: under each reading, that reading's run."""
    joined = Vars(pinned=pinned)
    for variables, _ in parts.values():
        joined.created.update(variables.created)
        joined.lemmas_used.extend(variables.lemmas_used)
        joined.facts.extend(variables.facts)
    reading = symbolic_option(joined, option)
    assume = or_(*[and_(reading.is_reading(r), o.assume) for r, (_, o) in parts.items()])
    claim = and_(*[or_(not_(reading.is_reading(r)), o.claim) for r, (_, o) in parts.items()])
    return joined, Obligation(assume, claim)


@contextlib.contextmanager
def _shared_least_such_that() -> Iterator[None]:
    """Within one encoding, ``least_such_that`` on the same predicate and range is one integer.

    Sound because the encoding is functional (one output per input), which the
    ``*_encoding_is_functional`` theorems prove for the predicates that use it; it lets a
    lemma's instance and the theorem name the same fresh integer.
    """
    bindings = _bindings("referee.model.arith:least_such_that")
    current = bindings[0][2]
    cache: dict[tuple[str, ...], Any] = {}

    def shared(predicate: Callable[[Any], Any], low: Any, high: Any, hint: str, guess: Any = None) -> Any:
        import z3

        if not (is_symbolic(low, high) or is_symbolic(predicate(high))):
            return current(predicate, low, high, hint, guess)
        probe = predicate(z3.Int("least!probe"))
        key = (hint, _term_key(low), _term_key(high), _term_key(probe))
        if key not in cache:
            cache[key] = current(predicate, low, high, hint)
        return cache[key]

    try:
        for owner, alias, _ in bindings:
            setattr(owner, alias, shared)
        yield
    finally:
        for owner, alias, original in bindings:
            setattr(owner, alias, original)


@contextlib.contextmanager
def _uninterpreted(target: str) -> Iterator[None]:
    """Encode the integer function ``target`` as a Z3 uninterpreted function of the same name.

    Its parameters without a default are the integer arguments; a call that also passes a
    defaulted one (a ruleset) gets an uninterpreted function of its own for each such value.
    """
    import inspect

    import z3

    bindings = _bindings(target)
    original = bindings[0][2]
    parameters = inspect.signature(original).parameters.values()
    arity = sum(1 for p in parameters if p.default is inspect.Parameter.empty)
    with symbolic():  # the probe may need symbolic mode (a least_such_that)
        probe = original(*(z3.Int(f"{target}!probe{i}") for i in range(arity)))
    result_sort = probe.sort() if is_symbolic(probe) else z3.IntSort()
    # The readings the function reads (under the run's symbolic ruleset) are arguments too: one function
    # of the inputs and the readings, never one value for every reading.
    readings = [reading_constant(name) for name in readings_in(probe if is_symbolic(probe) else None)]
    functions: dict[str, Any] = {}

    def applied(*args: Any) -> Any:
        extra = repr(args[arity:]) if len(args) > arity else ""
        if extra not in functions:
            name = target.rpartition(":")[2] + (f"!{len(functions)}" if extra else "")
            functions[extra] = z3.Function(name, *([z3.IntSort()] * arity), *(r.sort() for r in readings), result_sort)
        return functions[extra](*(a if is_symbolic(a) else z3.IntVal(a) for a in args[:arity]), *readings)

    try:
        for owner, alias, _ in bindings:
            setattr(owner, alias, applied)
        yield
    finally:
        for owner, alias, original_value in bindings:
            setattr(owner, alias, original_value)


def _term_key(value: Any) -> str:
    return value.sexpr() if is_symbolic(value) else repr(value)


@dataclass
class SolverAnswer:
    """Z3's answer to one check: the deciding attempt last, a witness's values when ``sat``."""

    answer: str  # sat | unsat | unknown
    attempts: list[Attempt]
    values: dict[str, Any] | None = None

    @property
    def seed(self) -> int | None:
        return self.attempts[-1].seed if self.answer != "unknown" else None

    @property
    def rlimit_used(self) -> int | None:
        return self.attempts[-1].rlimit_used


def encode_check(thm: Theorem, kind: str, mutant: Mutant | None = None, *, pinned: dict[str, Any] | None = None,
                 region: int | None = None, blocked: tuple[Any, ...] = (), reading: str | None = None) -> Query:
    """The SMT-LIB text of one check: ``proof`` and ``mutant`` ask ``assume and not claim``, ``vacuity`` ``assume``,
    each outside the theorem's ``unless`` regions; ``exception`` asks ``assume and not claim`` inside region ``region``.

    ``pinned`` fixes readings (an engine's); every other option is a variable over its readings. The text
    depends on the code alone (never on the hash seed, the process or what ran before); the fresh integers
    of ``least_such_that`` are numbered per check.
    """
    import z3

    pinned = check_readings(thm, kind, mutant, pinned, region, reading)
    variables, obligation, side = _encode(thm, mutant if kind == "mutant" else None, pinned, exact=kind == "exception")
    # A vacuity check's reads are its assumptions' (the side conditions only define fresh integers).
    read = (obligation.assume,) if kind == "vacuity" else (*side, obligation.assume, obligation.claim)
    reads = tuple(readings_in(z3.And(*[_as_bool(f) for f in read])))
    formulas = [*side, _as_bool(obligation.assume)]
    if kind != "vacuity":
        formulas.append(z3.Not(_as_bool(obligation.claim)))
    if reading is not None:
        formulas.append(_as_bool(region_term(variables, parse_region(reading))))
    if kind == "exception":
        formulas.append(_as_bool(region_term(variables, thm.unless[region or 0])))
    else:
        formulas.extend(z3.Not(_as_bool(region_term(variables, r))) for r in (*thm.unless, *blocked))
    if kind == "mutant" and mutant is not None and mutant.search_within is not None:
        formulas.append(_as_bool(mutant.search_within(variables)))
    solver = mutant.solver if kind == "mutant" and mutant is not None and mutant.solver else thm.solver
    return Query(query_text(formulas), variables_of(variables.created), solver, reads=reads)


def solve(query: Query, rlimit: int) -> SolverAnswer:
    """Decide the query's text, each seed of :data:`RETRY_SEEDS` in a new context, while ``unknown``.

    Each attempt parses the text into a new ``z3.Context``, so no attempt inherits terms,
    lemmas, caches or resource counts from anything before it: the ``rlimit count``
    reported is what that one check used, and it is the same in every run.
    """
    attempts: list[Attempt] = []
    for seed in RETRY_SEEDS:
        found = decide(query, rlimit, seed)
        attempts.append(Attempt(seed, found.answer, found.rlimit_used, found.reason))
        if found.answer != "unknown":
            return SolverAnswer(found.answer, attempts, found.values)
    return SolverAnswer("unknown", attempts)


def _as_bool(formula: Any) -> Any:
    import z3

    return z3.BoolVal(formula) if isinstance(formula, bool) else formula


def replay(thm: Theorem, values: dict[str, Any], mutant: Mutant | None = None,
           pinned: dict[str, Any] | None = None) -> tuple[bool, bool]:
    """Run the theorem concretely on a counterexample, under its readings: ``(assumption holds, claim holds)``."""
    variables = Vars(values, pinned=pinned)
    with mutant.applied() if mutant is not None else single_source(), ambient(variables):
        obligation = thm.build(variables)  # the model itself, never a fast twin
    return bool(obligation.assume), bool(obligation.claim)


def _error(start: float, what: str) -> Verdict:
    last = traceback.format_exc().strip().splitlines()[-1]
    return Verdict("error", time.perf_counter() - start, detail=f"{what} raised: {last}")


def _unknown_detail(answer: SolverAnswer, rlimit: int) -> str:
    reasons = ", ".join(f"seed {a.seed}: {a.reason or 'unknown'}" for a in answer.attempts)
    return f"no answer within rlimit {rlimit} ({reasons})"


#: Looks a check's answer up (a proof cache): given the query and the limit, an answer or ``None``.
Lookup = Callable[[Query, int], "SolverAnswer | None"]


def check(
    thm: Theorem, kind: str, mutant: Mutant | None = None, *, rlimit: int | None = None, lookup: Lookup | None = None,
    pinned: dict[str, Any] | None = None, region: int | None = None, reading: str | None = None,
) -> Verdict:
    """Answer one check (``proof``, ``vacuity``, ``mutant`` or ``exception``): its text, decided (or looked up), judged.

    ``extra`` of the verdict carries the ``query`` and its ``digest``, the options it ``reads``, whether the
    answer was ``reused``, and the solver ``answer`` when it was decided here.
    """
    limit = thm.rlimit if rlimit is None else rlimit
    start = time.perf_counter()
    try:
        query = encode_check(thm, kind, mutant, pinned=pinned, region=region, reading=reading)
    except Exception:
        return _error(start, "building the encoding")
    answer = lookup(query, limit) if lookup is not None else None
    reused = answer is not None
    if answer is None:
        answer = solve(query, limit)
    verdict = judge(thm, kind, mutant, answer, limit, time.perf_counter() - start, pinned, region, reading)
    verdict.extra.update(digest=query.digest, reused=reused, answer=None if reused else answer, query=query,
                         reads=list(query.reads))
    return verdict


def check_readings(thm: Theorem, kind: str, mutant: Mutant | None, pinned: dict[str, Any] | None,
                   region: int | None, reading: str | None = None) -> dict[str, Any] | None:
    """The readings a check fixes: an exception is confirmed, and a mutant killed, at one full reading (the
    region's, the mutant's own ``under``, else the defaults); a vacuity check at ``reading``, when it names one;
    a proof and the vacuity check over every reading fix only ``pinned``."""
    if reading is not None:  # its words fixed; an integer option's ">=" stays free, a constraint (encode_check)
        atoms = parse_region(reading)
        free = {name for name, op, _ in atoms if op == ">="}
        point = region_point(tuple(a for a in atoms if a[1] == "="), pinned)
        return {name: value for name, value in point.items() if name not in free}
    if kind == "exception":
        return region_point(thm.unless[region or 0], pinned)
    if kind == "mutant" and mutant is not None:
        return region_point(parse_region(mutant.under) if mutant.under else (), pinned)
    return pinned


def judge(thm: Theorem, kind: str, mutant: Mutant | None, answer: SolverAnswer, limit: int, seconds: float,
          pinned: dict[str, Any] | None = None, region: int | None = None, reading: str | None = None) -> Verdict:
    """The verdict a solver answer gives, every witness replayed through the model (under its readings) first."""
    pinned = check_readings(thm, kind, mutant, pinned, region, reading)
    if kind == "vacuity":
        return _judge_vacuity(thm, answer, limit, seconds, pinned)
    verdict = _judge_proof(thm, mutant if kind == "mutant" else None, answer, limit, seconds, pinned)
    if kind == "mutant":
        verdict.status = {"counterexample": "killed", "proved": "survived"}.get(verdict.status, verdict.status)
    if kind == "exception":
        verdict.status = {"counterexample": "confirmed", "proved": "stale"}.get(verdict.status, verdict.status)
    return verdict


def _common(answer: SolverAnswer, limit: int) -> dict[str, Any]:
    return dict(seed=answer.seed, rlimit_used=answer.rlimit_used, rlimit=limit, attempts=list(answer.attempts))


def _judge_proof(thm: Theorem, mutant: Mutant | None, answer: SolverAnswer, limit: int, seconds: float,
                 pinned: dict[str, Any] | None = None) -> Verdict:
    """``unsat`` is proved; a ``sat`` witness is a counterexample only once the model reproduces it."""
    common = _common(answer, limit)
    if answer.answer == "unsat":
        return Verdict("proved", seconds, **common)
    if answer.answer == "unknown":
        return Verdict("unknown", seconds, detail=_unknown_detail(answer, limit), **common)
    values = dict(answer.values or {})
    try:
        assumed, claimed = replay(thm, values, mutant, pinned)
    except Exception:
        verdict = _error(time.perf_counter() - seconds, "replaying the counterexample through the model")
        verdict.status, verdict.counterexample = "encoding-defect", values
        return verdict
    if assumed and not claimed:
        return Verdict("counterexample", seconds, counterexample=values, **common)
    return Verdict(
        "encoding-defect",
        seconds,
        counterexample=values,
        detail="Z3 found a counterexample that the model does not reproduce "
        f"(assumption holds: {assumed}, claim holds: {claimed})",
        **common,
    )


def _judge_vacuity(thm: Theorem, answer: SolverAnswer, limit: int, seconds: float,
                   pinned: dict[str, Any] | None = None) -> Verdict:
    """``sat`` with a witness the model accepts is satisfiable; ``unsat`` is vacuous."""
    common = _common(answer, limit)
    if answer.answer == "unknown":
        return Verdict("unknown", seconds, detail=_unknown_detail(answer, limit), **common)
    if answer.answer == "unsat":
        return Verdict("vacuous", seconds, detail="the assumptions are unsatisfiable", **common)
    values = dict(answer.values or {})
    try:
        assumed, _ = replay(thm, values, pinned=pinned)
    except Exception:
        assumed = False
    if not assumed:
        return Verdict(
            "encoding-defect",
            seconds,
            counterexample=values,
            detail="Z3's witness of the assumptions does not satisfy them in the model",
            **common,
        )
    return Verdict("satisfiable", seconds, counterexample=values, **common)


def prove(thm: Theorem, mutant: Mutant | None = None, *, rlimit: int | None = None) -> Verdict:
    """Decide ``assume => claim`` for the encoding (or for one mutant of it).

    A counterexample is replayed through the model (under the same mutant) before it is
    reported; one that does not replay is an ``encoding-defect``, never a counterexample.
    """
    verdict = check(thm, "proof" if mutant is None else "mutant", mutant, rlimit=rlimit)
    if mutant is not None:  # the proof question under the mutant, in the proof's words
        verdict.status = {"killed": "counterexample", "survived": "proved"}.get(verdict.status, verdict.status)
    return verdict


def check_vacuity(thm: Theorem, *, rlimit: int | None = None) -> Verdict:
    """The assumptions alone must be satisfiable, or the theorem proves nothing (the witness replayed too)."""
    return check(thm, "vacuity", rlimit=rlimit)


def check_mutant(thm: Theorem, mutant: Mutant, *, rlimit: int | None = None) -> Verdict:
    """A mutant is killed when the theorem has a replayable counterexample against it."""
    return check(thm, "mutant", mutant, rlimit=rlimit)


def all_of(*conditions: Any) -> Any:
    """Conjunction that reads well in theorem assumptions."""
    return and_(*conditions)
