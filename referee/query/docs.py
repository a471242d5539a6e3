"""The generated parts of ``docs/query.md``: the name and field reference, and the gallery.

Both sit between markers in the page; :func:`render_page` rewrites them from the model's
records (:func:`~referee.query.types.reference_markdown`) and the gallery of designer
questions (``tests/query_gallery.py``), and ``tests/test_query_gallery.py`` holds the page to it.
Run ``python -m referee.query.docs`` to rewrite the page.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from typing import Any

from .types import reference_markdown

MARKERS = {"reference": ("<!-- query-reference:begin -->", "<!-- query-reference:end -->"),
           "gallery": ("<!-- query-gallery:begin -->", "<!-- query-gallery:end -->")}


def render_gallery(gallery: Any) -> str:
    out = ["| question | verdict | possible under (`--by-reading`) | why |", "|---|---|---|---|"]
    for q in gallery:
        verdict = f"**{q.expected}**" + (f" ({q.objective})" if q.objective is not None else "")
        readings = "(an objective: not partitioned)" if q.objective is not None else q.possible_under()
        out.append(f"| {q.question} | {verdict} | {readings} | {q.why} ({', '.join(c.split(':')[1] for c in q.clauses)}) |")
    out += ["", "The commands:", "", "```console"]
    out += [f"$ {shlex.join(q.argv())}" for q in gallery]
    out.append("```")
    return "\n".join(out)


def play_reference() -> list[str]:
    """The names and fields of a play query (``--action play_card``, :mod:`.play`)."""
    from .play import (ACTIVATE_EVENTS, ACTIVATE_FIELDS, PLAY_EVENTS, PLAY_FIELDS, cast_ids, object_fields,
                       play_schema, pool_fields, resource_fields)

    schema = play_schema()
    out = ["", "A play query (`--action play_card`) reads other names: "
           + "; ".join(f"`{n}`: {schema.notes[n]}" for n in schema.names) + "."]
    out.append("The objects of a play state: " + ", ".join(f"`{o}`" for o in cast_ids()) + "; the pool's fields: "
               + ", ".join(f"`{k}` ({v})" for k, v in pool_fields().items()) + "; an object's fields: "
               + ", ".join(f"`{k}` ({v})" for k, v in object_fields().items()) + ".")
    out.append("Resources fields (`first.total`, `first.printed`...): "
               + ", ".join(f"`{k}` ({v})" for k, v in resource_fields().items()) + "; discount fields: `energy` (Int), "
               "`power` (Int). Event names: " + ", ".join(f"`{e}`" for e in PLAY_EVENTS) + " (`unit=\"card\"`).")
    out += ["", "Play fields (`first`, the `play_card`):"]
    out += [f"- `{k}` ({t}): {note}" for k, (t, note) in PLAY_FIELDS.items()]
    out += ["", "Activation fields (`first`, an `activate`; events " + ", ".join(f"`{e}`" for e in ACTIVATE_EVENTS)
            + "):"]
    out += [f"- `{k}` ({t}): {note}" for k, (t, note) in ACTIVATE_FIELDS.items()]
    return out


def render_page(text: str, gallery: Any) -> str:
    """The page with both generated sections replaced."""
    reference = "\n".join([reference_markdown(), *play_reference()])
    for name, body in (("reference", reference), ("gallery", render_gallery(gallery))):
        begin, end = MARKERS[name]
        pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise ValueError(f"docs/query.md has no {begin} ... {end} section")
        text = pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)
    return text


def load_gallery(root: Path) -> Any:
    sys.path.insert(0, str(root / "tests"))
    try:
        from query_gallery import GALLERY  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    return GALLERY


def main() -> None:
    from referee.specs.paths import repo_root

    root = Path(repo_root())
    page = root / "docs" / "query.md"
    page.write_text(render_page(page.read_text(), load_gallery(root)))
    print(f"wrote {page}")


if __name__ == "__main__":
    main()
