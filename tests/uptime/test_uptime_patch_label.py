"""A Requisition that can only be paid with the seat's Patch says so in its label:
the payment after it may take the Patch without a question, so the
label is the player's one warning. A Requisition the seat can pay without the Patch
keeps its plain label."""

from __future__ import annotations

import cardlab
from cardlab.games.uptime.scenarios import act, arrange


def labels(s) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def test_component_label_names_the_material_the_patch_stands_in_for():
    game = cardlab.load_game("uptime", players=3)
    s = arrange(game, hands={0: ["Silicon", "Patch"]}, row=["CPU", "RAM", "Case"])
    got = labels(s)
    assert "Requisition CPU from slot 1 (pay Silicon, Copper; spends your Patch for Copper)" in got
    assert (
        "Requisition RAM from slot 2 (pay Silicon, Polymer; spends your Patch for Polymer)" in got
    )
    # with both materials in hand the Patch is not needed: the label is the plain one
    s = arrange(game, hands={0: ["Silicon", "Copper", "Patch"]}, row=["CPU"])
    assert "Requisition CPU from slot 1 (pay Silicon, Copper)" in labels(s)


def test_the_label_tells_the_truth_about_the_payment():
    """After the labelled Requisition the Patch is gone and the Silicon paid."""
    game = cardlab.load_game("uptime", players=3)
    s = arrange(game, hands={0: ["Silicon", "Patch"]}, row=["CPU"])
    act(s, "Requisition CPU from slot 1 (pay Silicon, Copper; spends your Patch")
    while s.current_player() == 0 and s.decision_kind() == "pay":
        act(s, "Pay")  # whatever is left to pay: the label said what it will be
    assert s.patches[0] == 0
    assert [s.table.name[c] for c in s.tableau[0]] == ["CPU"]
    assert not s.hand[0]


def test_two_patches_and_the_other_kinds():
    game = cardlab.load_game("uptime", players=3)
    s = arrange(game, hands={0: ["Patch", "Patch", "Polymer"]}, row=["CPU"])
    got = labels(s)
    assert (
        "Requisition CPU from slot 1 (pay Silicon, Copper; spends 2 of your Patches for Silicon, Copper)"
        in got
    )
    s = arrange(game, hands={0: ["Patch", "Polymer"]}, row=["Patch"])
    assert "Requisition Patch from slot 1 (pay 1 raw material)" in labels(s)  # the Polymer pays
    s = arrange(game, hands={0: ["Patch"]}, row=["Patch"])
    assert "Requisition Patch from slot 1 (pay 1 raw material; spends your Patch for it)" in labels(
        s
    )
    s = arrange(game, hands={0: ["Patch"]}, tableaus={0: ["CPU", "RAM"]}, row=["Workstation"])
    assert (
        "Requisition Workstation from slot 1 (pay 3 different Component types; "
        "spends your Patch for a Component type)" in labels(s)
    )
