"""The command line: one thin module per verb (``register(app)``), the app that assembles them, the pytest plugin.

A verb resolves its settings (``referee.check.options``), calls the tools and prints a report. Nothing imports
this package (an import contract): it is the top layer. ``entry`` is the console script's entry point and imports
only the standard library before it installs the signal handlers.
"""
