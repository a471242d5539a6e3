"""A referee/2 engine: ``engine.core.answer`` turns a scenario into an observation (or refuses its kind).

``python -m engine`` speaks JSON lines on stdin/stdout (``referee check --engine "python -m engine"``);
``referee check`` calls ``engine.core:answer`` in-process as declared in ``referee.toml``;
``engine.vectors`` replays a referee vector release through it (``pytest tests/test_vectors.py``).
"""

PROTOCOL = "referee/2"
