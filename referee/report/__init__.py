"""Reports of a run and of the code: JUnit XML (``junit``), the ``--html`` page (``html``, ``templates/``),
the generated doc pages (``docgen``, ``exhaust_page``). The text and ``--json`` reports are the ``CheckReport``
(``referee.check.harness``) as the verbs print it.
"""
