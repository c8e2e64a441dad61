"""Card data as a spreadsheet (CSV) and back, for every game: `cardlab cards`."""
