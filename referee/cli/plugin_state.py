"""What the pytest plugin reads and writes beside ``referee check``: the known divergences and the state folder.

``referee check`` reads ``referee-known.toml`` (or the config's ``known``) and keeps Hypothesis' own files in
``.referee/hypothesis``; the plugin does the same, from the pytest root folder, so that a known divergence that
passes ``check`` passes the plugin's test too, and no ``.hypothesis/`` is left in the engine's folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The state folder the plugin writes to, under the pytest root (as ``referee check --state-dir`` defaults to).
STATE_DIR = ".referee"


def known_entries(root: Path) -> list[Any]:
    """The known divergences of the project at ``root``: its ``referee-known.toml``, else its config's ``known``."""
    from ..check.config import load_config
    from ..check.grouping.groups import load_known, parse_known

    path = root / "referee-known.toml"
    if path.is_file():
        return load_known(path)
    config = load_config(root)
    return parse_known(config.get("known"), f"{config.source}") if config.get("known") is not None else []


@contextmanager
def hypothesis_home(folder: Path) -> Iterator[None]:
    """Hypothesis' own files go to ``folder`` while the block runs; its home is put back after (the user's own
    Hypothesis tests in the same session keep theirs)."""
    from hypothesis import configuration

    name = "__hypothesis_home_directory"
    before = vars(configuration).get(name)
    configuration.set_hypothesis_home_dir(folder)
    try:
        yield
    finally:
        vars(configuration)[name] = before
