"""Reports of a run and of the code: the one report model of a check run (``model``), from which its ``--html``
page (``html``, ``templates/``) and its JUnit XML (``junit``) are rendered and written (``files``, never raising);
the merge of many runs' JSON reports (``merge``); the generated doc pages (``docgen``, ``exhaust_page``). The text
and ``--json`` reports are the ``CheckReport`` (``referee.check.harness``) as the verbs print it; the model's JSON
is the same, key for key.
"""
