"""The bug grouping: one group per bug, named by the rule it breaks (``docs/grouping.md``).

A campaign calls (:mod:`.api`) three functions: :func:`file_failure` for each failing scenario it judged, :func:`groups_left`
to count the groups that will remain once merged (``--max-divergences`` counts bugs, not keys), and
:func:`settle_groups` at the end, which shrinks each group's representative, merges the groups that settle
together and writes them into the report. Every verb that names a clause for a failing scenario (``check``,
``vectors run``, ``exhaust``, ``validate``, the reports) names it through :func:`clause_at_fault`.

The pieces: :mod:`.keys` (a divergence's key: the decision at fault, the kind of difference, the merges and the
drift guard), :mod:`.attribution` (the model step at fault), :mod:`.groups` (the group and the known entries),
:mod:`.filing`, :mod:`.keyed_shrink` and :mod:`.settle`. Like every package's, this ``__init__`` is a docstring only.
"""
