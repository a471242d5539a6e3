"""The clauses a model run applied, for ``--stats``: cheaply, as a set, without a tracer.

The clause trail (``referee.trail.record``) runs the model under ``sys.setprofile``; a call-only ``sys.settrace``
hook was the cheaper way to learn *which* tagged functions ran. Both cost the same two things on Python 3.11:
a traced run is the single-source pipeline, not its fast twin (``model/combat/fast.py`` steps aside for a
tracer; on a campaign's fresh scenarios ~560 us a scenario against the twin's ~140), and the interpreter runs
every instruction of a traced thread unspecialised, with a callback at every call. ``--stats`` was 2.5-3x
slower for it, and ran the model a second time besides.

So no tracer here: while a campaign with ``--stats`` runs (:func:`probes_installed`), each tagged function's
``__code__`` is a *probe*, a two-line body with the function's own parameters that notes the function's code and
calls a copy of the function made with its own code, each argument passed on as it came (one extra call per
tagged call, no tuple or dict packed); a recorded run (:func:`clauses_applied_in`)
switches the fast twin off (``arith.single_source``), as a tracer did, so the same tagged functions run and the
same clause set comes out (``tests/harness/test_harness_stats_cost.py`` holds it equal to the trail's). The
probes stay for the whole campaign: swapping 208 codes in and out around every scenario cost ~30 us, and more
in the call sites it despecialised each time. To what else runs in the campaign, a probe is one more untagged
frame: the clause trail maps each tagged function's ``__code__`` as it finds it (the probe, whose frame it
records as the step; the copy's frame inside is no tagged code) and reads the locals of ``emit`` frames only,
which have no probe. Every original is put back when the campaign ends, whatever happened. A function with
free variables cannot take a probe's code (none is tagged today): one such raises, never goes uncounted.
"""

from __future__ import annotations

import inspect
import types
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: The probe's body, with the function's own parameters (``_probe_source``); the strings are placeholders,
#: replaced in its constants by the objects named. Each argument is forwarded as it came: a ``*args, **kwargs``
#: probe packed a tuple and a dict at every tagged call.
_PROBE_BODY = '''def probe({params}):
    "NOTE"("CODE")
    return "COPY"({arguments})
'''

_CODES: dict[Any, tuple[str, ...]] = {}
#: (function, its code, its probe's code) of every tagged function; the codes the probes noted; probes in place.
_PROBES: list[tuple[Any, Any, Any]] = []
_CALLED: set[Any] = set()
_SIZE = [-1]
_INSTALLED = [0]


def _probe_source(code: types.CodeType) -> str:
    """The probe of a function of ``code``: the same parameters (positional-only, positional, ``*args``,
    keyword-only, ``**kwargs``), each passed on in the same form. Defaults stay on the function object."""
    names, count, keywords = code.co_varnames, code.co_argcount, code.co_kwonlyargcount
    positional, keyword = list(names[:count]), list(names[count:count + keywords])
    star = names[count + keywords] if code.co_flags & inspect.CO_VARARGS else None
    stars = names[count + keywords + bool(star)] if code.co_flags & inspect.CO_VARKEYWORDS else None
    only = code.co_posonlyargcount
    params = positional[:only] + (["/"] if only else []) + positional[only:]
    params += [f"*{star}"] if star else (["*"] if keyword else [])
    params += keyword + ([f"**{stars}"] if stars else [])
    arguments = positional + ([f"*{star}"] if star else []) + [f"{k}={k}" for k in keyword]
    arguments += [f"**{stars}"] if stars else []
    return _PROBE_BODY.format(params=", ".join(params), arguments=", ".join(arguments))


def _probe_template(code: types.CodeType) -> types.CodeType:
    with warnings.catch_warnings():  # '"COPY"(...)' reads as calling a str: placeholders, never run
        warnings.simplefilter("ignore", SyntaxWarning)
        module = compile(_probe_source(code), "<referee clause probe>", "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))


def _probe(function: Any) -> types.CodeType:
    """``function``'s probe: its template with the placeholders bound, named after the function."""
    code = function.__code__
    if code.co_freevars:
        raise TypeError(f"{function.__qualname__} has free variables: --stats cannot probe it")
    template = _probe_template(code)
    copy = types.FunctionType(code, function.__globals__, function.__name__, function.__defaults__)
    copy.__kwdefaults__ = function.__kwdefaults__
    # a probe's code is hashed (the trail keys a dict by codes): its constants must be, so the set's ``add``
    bound = {"COPY": copy, "CODE": code, "NOTE": _CALLED.add}
    consts = tuple(bound.get(c, c) if isinstance(c, str) else c for c in template.co_consts)
    return template.replace(co_consts=consts, co_name=code.co_name, co_qualname=code.co_qualname)


def tagged_codes() -> dict[Any, tuple[str, ...]]:
    """Every tagged model function's code -> its clause ids (rebuilt, with the probes, when more are tagged)."""
    from referee.model.clauses import IMPLEMENTATIONS

    from ..trail import _tagged_codes

    if _INSTALLED[0]:  # the probes in place were built from these codes; none is rebuilt while they stand
        return _CODES
    size = sum(len(f) for f in IMPLEMENTATIONS.values())
    if _SIZE[0] != size or not _CODES:
        codes = {code: ids for code, (_, ids) in _tagged_codes().items()}
        functions = {id(f): f for fs in IMPLEMENTATIONS.values() for f in fs if getattr(f, "__code__", None) in codes}
        _PROBES[:] = [(f, f.__code__, _probe(f)) for f in functions.values()]
        _CODES.clear()
        _CODES.update(codes)
        _SIZE[0] = size
    return _CODES


def _install() -> None:
    """One more holder of the probes: the first puts every tagged function's probe in place."""
    if not _INSTALLED[0]:
        tagged_codes()
        for function, _, probe in _PROBES:
            function.__code__ = probe
    _INSTALLED[0] += 1


def _uninstall() -> None:
    """One holder fewer: the last puts every original back."""
    _INSTALLED[0] -= 1
    if not _INSTALLED[0]:
        for function, code, _ in _PROBES:
            function.__code__ = code


@contextmanager
def probes_installed() -> Iterator[None]:
    """While the block runs, every tagged function is its probe (see the module docstring); nested blocks share them."""
    _install()
    try:
        yield
    finally:
        _uninstall()


class clauses_applied_in:
    """While the block runs, add to ``seen`` the clause ids of every tagged model function called (the fast twin
    off: ``arith.single_source``). A class, not a generator: ``--stats`` enters it once a scenario."""

    def __init__(self, seen: set[str]) -> None:
        self.seen = seen

    def __enter__(self) -> None:
        from referee.model.arith import single_source

        _install()
        _CALLED.clear()
        self.single = single_source()
        self.single.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.single.__exit__(*exc)
        self.seen.update(*map(_CODES.__getitem__, _CALLED))
        _CALLED.clear()
        _uninstall()
