"""Engines under test: the ``Engine`` interface and its transports (in-process, a program over JSON lines).

``transports`` holds the interface, the in-process and subprocess transports, the JSON-lines codec and the
checks of an answer; ``io`` what the ``--python`` worker needs too (standard library only); ``worker`` that
worker (``python -m referee.engines.transports.worker``). This ``__init__`` imports nothing, so the worker starts fast.
"""
