"""The play rulebook's action kinds: ``play_card`` (350-359) and ``activate`` (399)."""

from __future__ import annotations

from ...rulebook import ActionKind
from .actions import run_activate, run_play_card
from .codec import decode_activate, decode_play_card
from .schema import ACTIVATE_SUMMARY, PLAY_CARD_SUMMARY, activate_schema, play_card_schema
from .strategies import draw_play_action

KINDS: dict[str, ActionKind] = {
    "play_card": ActionKind(
        name="play_card",
        summary=PLAY_CARD_SUMMARY,
        chapters=("play:350.1", "play:356.2", "play:357.1", "play:358.2"),
        fields=(),
        run=run_play_card,
        draw=lambda draw, state: draw_play_action(draw, state, "play_card"),
        rulebook="play",
        extra={"decode": decode_play_card, "schema": play_card_schema},
    ),
    "activate": ActionKind(
        name="activate",
        summary=ACTIVATE_SUMMARY,
        chapters=("play:399", "play:403.1.a", "play:358.2"),
        fields=(),
        run=run_activate,
        draw=lambda draw, state: draw_play_action(draw, state, "activate"),
        rulebook="play",
        extra={"decode": decode_activate, "schema": activate_schema},
    ),
}
