"""CRAZY EIGHTS on the reference shelf: match the top card, eights are wild, go out first."""
