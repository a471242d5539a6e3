"""The kits' generated protocol types: where each is written, and its text (``referee docs`` writes them; a
test fails on drift, so a protocol change regenerates them)."""

from __future__ import annotations

from ..protocol import PROTOCOL
from . import emit_rust, emit_typescript
from .typegen import protocol_module

#: Each kit's types file, inside the package (``referee init`` copies it with the rest of the kit).
TYPE_FILES = {"typescript": "referee/kits/typescript/src/protocol.ts", "rust": "referee/kits/rust/src/protocol.rs"}


def render_types() -> dict[str, str]:
    """Each kit's types file (its path from the repository root) and the text the schemas give."""
    module = protocol_module()
    return {TYPE_FILES["typescript"]: emit_typescript.emit(module, PROTOCOL),
            TYPE_FILES["rust"]: emit_rust.emit(module, PROTOCOL)}
