"""Errors a user can cause. Each is a ValueError so callers can catch broadly,
and each message names what was wrong and what would have been accepted."""


class CardlabError(ValueError):
    """Base of every user-facing cardlab error."""


class IllegalActionError(CardlabError):
    """An action that is not legal in the current state. The state is unchanged."""


class OptionError(CardlabError):
    """An unknown rule option, or a value the option does not allow."""


class PlayerCountError(CardlabError):
    """A player count the game does not support."""


class CardDataError(CardlabError):
    """A card file that cannot be loaded; names the file, the card and the field.

    `locations` are the failing fields as paths into the parsed file (``("parts", 3,
    "north")``) when the failure is a field's, so a tool that shows the data another
    way (a spreadsheet's row and column) can point at the same cell."""

    def __init__(self, message: str, locations: tuple[tuple[object, ...], ...] = ()) -> None:
        super().__init__(message)
        self.locations = locations
