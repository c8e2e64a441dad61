"""WAR on the reference shelf: two players, no decisions, pure luck (the gate's floor)."""
