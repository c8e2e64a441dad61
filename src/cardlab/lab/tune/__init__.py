"""`cardlab tune`: search rule options and card numbers for the smallest change
that makes a design keep its rulebook's promises, and hand the designer a
variant file to play. See docs/lab.md ("Tuning")."""

from cardlab.lab.tune.study import TrialResult, TuneResult, TuneSpec, run_tune

__all__ = ["TrialResult", "TuneResult", "TuneSpec", "run_tune"]
