"""``referee check``: the options, the plan, and the pipeline's stages.

Every option declared once (``options``), read from the file (``config``) and turned into what a run needs
(``plan``); the campaign and its stages (``harness``: draw, send, expect, judge, group, shrink, explain at fault,
report), each stage's pieces (``strategies``, ``streams``, ``judging`` and ``compare``, the bug grouping and the
clause at fault in ``grouping``, ``shrink``, ``verdicts``, ``outcome``, ``replays`` and ``failure_files``, ``stats``,
``databases`` and ``examples_database``, ``interrupts``), several workers (``workers``) and the match-log check
(``validate``).
"""
