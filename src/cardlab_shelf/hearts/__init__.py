"""HEARTS on the reference shelf: four players, avoid hearts and the queen of spades."""
