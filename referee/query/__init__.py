"""``referee query``: ask the model a question over the whole scenario space.

See ``docs/query.md``. A condition (:mod:`.parser`, typed by :mod:`.types`) is asked over
every cell of the space (:mod:`.space`: boards of up to N units, the actions in order,
every ruleset reading the model reads); :mod:`.solve` asks Z3, cheapest question first;
a witness is replayed through ``referee.actions`` exactly as ``referee check`` runs
scenarios, and shrunk (:mod:`.minimize`). ``impossible`` is answered only when every cell
is proved impossible, and it states the space it covered.
"""

from __future__ import annotations

from .parser import parse_condition
from .run import DEFAULT_QUERY_RLIMIT, QueryAnswer, run_query
from .types import QueryError

__all__ = ["DEFAULT_QUERY_RLIMIT", "QueryAnswer", "QueryError", "parse_condition", "run_query"]
