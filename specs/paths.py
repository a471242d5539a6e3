"""Where the source tree is, when referee runs from a checkout."""

from __future__ import annotations

from pathlib import Path


def repo_root() -> Path | None:
    """The source tree holding the ``referee`` package folder, or ``None`` for a plain install."""
    import referee

    root = Path(referee.__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() else None
