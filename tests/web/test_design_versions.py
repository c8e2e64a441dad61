"""Design versions: a design from the page (sheet rows and options) is checked at every
player count before it is kept, a bad cell is refused naming its row and column, each
version keeps its difference from the one before, and a version prints and opens a
table request with its cards and options."""

from __future__ import annotations

import pytest

from cardlab.web.catalog import Catalog
from cardlab.web.design import (
    DesignRefused,
    Designs,
    check_design,
    packaged_doc,
    page_payload,
    parse_design,
    play_request,
    print_version,
    sheet_of,
)
from cardlab.web.store import Store


def _rows(
    game: str, name: str | None = None, column: str = "", value: str = ""
) -> list[dict[str, str]]:
    rows = sheet_of(packaged_doc(game))["rows"]
    for row in rows:
        if row.get("name") == name:
            row[column] = value
    return rows


def test_a_bad_cell_is_refused_with_its_row_and_column():
    with pytest.raises(DesignRefused) as caught:
        check_design("uptime", parse_design({"rows": _rows("uptime", "Copper", "count", "99")}))
    (problem,) = caught.value.problems
    assert (problem["row"], problem["column"]) == (3, "count")
    with pytest.raises(DesignRefused, match="no rule option"):
        check_design("uptime", parse_design({"rows": _rows("uptime"), "options": {"nope": 1}}))
    with pytest.raises(DesignRefused, match="design field"):
        parse_design({"rows": [], "colour": "red"})


def test_versions_keep_their_diff_and_print_and_play(tmp_path):
    store = Store(tmp_path / "d.db")
    designs = Designs(store)
    with pytest.raises(DesignRefused, match="needs a name"):
        designs.save("uptime", parse_design({"rows": _rows("uptime")}))
    first = designs.save(
        "uptime",
        parse_design({"rows": _rows("uptime", "Tower", "count", "2"), "name": "two Towers"}),
    )
    assert first["diff"] == ["computer Tower: count 1 -> 2"]
    second = designs.save(
        "uptime",
        parse_design(
            {
                "rows": _rows("uptime", "Tower", "count", "2"),
                "options": {"hand_limit": 6},
                "name": "hand limit",
            }
        ),
    )
    assert (
        second["diff"] == ["option hand_limit: 'as written' -> 6"]
        and second["parent"] == first["id"]
    )
    page = page_payload(designs, Catalog(), "uptime")
    assert [v["name"] for v in page["versions"]] == ["hand limit", "two Towers"]
    assert page["options"] == {"hand_limit": 6}
    assert any(r.get("name") == "Tower" and r["count"] == "2" for r in page["sheet"]["rows"])
    spec = play_request(designs, Catalog(), "uptime", second["id"])
    assert spec["options"] == {"hand_limit": 6} and spec["seats"][0]["kind"] == "human"
    pdf = print_version(designs, "uptime", first["id"])
    assert pdf.startswith(b"%PDF")
    import io

    from pypdf import PdfReader

    cover = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "design version 1 (two Towers)" in " ".join(cover.split()), cover[:400]
    with pytest.raises(DesignRefused, match="no version"):
        designs.get("uptime", 999)
    store.close()
