"""The art's own error: card text that cannot fit its face. It is a
CardDataError because the fix is in the card file (shorter text), and the CLI
already reports CardDataError clearly."""

from cardlab.core.errors import CardDataError


class CardTextOverflowError(CardDataError):
    """A card's text does not fit its face even at the smallest allowed size.

    Raised instead of clipping, so a designer learns which card to shorten."""
