"""``referee check``: the options, the plan, and the pipeline's stages.

Every option declared once (``options``), read from the file (``config``) and turned into what a run needs
(``plan``); the campaign and its stages (``harness``: draw, send, expect, judge, group, shrink, explain at fault,
report), each stage's pieces (``strategies``, ``streams``, ``compare``, ``groups``, ``fault_keys``, ``at_fault``,
``shrink``, ``stats``, ``databases``, ``interrupts``), several workers (``workers``) and the match-log check
(``validate``).
"""
