"""Card faces for the table, drawn by the same SVG templates as the print sheets
(`cardlab.art`). A card's face depends only on its id (ids name physical
cards, not positions), so serving faces by id reveals nothing about where any
card is. Games without art yet fall back to the CSS cards in the browser."""

from __future__ import annotations

import functools
import logging

from cardlab.web.catalog import Catalog

log = logging.getLogger("cardlab.web")


@functools.lru_cache(maxsize=8)
def _faces(catalog: Catalog, game: str) -> dict[str, str]:
    try:
        from cardlab.art import game_art

        module = game_art(game)
        cls = catalog.game_class(game)
        instance = cls(getattr(cls, "default_players", cls.min_players))
        faces = {
            face.id: module.card_svg(face)
            for face in module.faces(instance.cards, instance.options)
        }
        for back in getattr(module, "BACKS", ()):
            faces[f"back-{back}"] = module.back_art(back).svg()
        return faces
    except Exception:  # art is optional: the table draws CSS cards without it
        log.info("no card art for %s yet", game, exc_info=True)
        return {}


def card_svg(catalog: Catalog, game: str, card: str) -> str | None:
    if game not in catalog.names():
        return None
    return _faces(catalog, game).get(card)


def art_index(catalog: Catalog, game: str) -> dict[str, list[str]]:
    """Which card ids and backs have art, so the browser only asks for those."""
    faces = _faces(catalog, game) if game in catalog.names() else {}
    return {
        "cards": sorted(k for k in faces if not k.startswith("back-")),
        "backs": sorted(k[5:] for k in faces if k.startswith("back-")),
    }
