"""The seal's hidden-id scan finds exactly what the plain whole-word scan finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.web.views import ids_in_text

_WORD = re.compile(r"[A-Za-z0-9_]+")

IDS = st.sets(st.from_regex(r"[a-z]{1,2}[0-9]{0,3}", fullmatch=True), min_size=1, max_size=8)
PIECES = st.lists(
    st.one_of(
        st.from_regex(r"[a-z]{1,2}[0-9]{0,3}", fullmatch=True),
        st.sampled_from(['"', ",", " ", ":", "[", "]", "-", "_", "x", "9", "é", "\\u00e9"]),
    ),
    max_size=40,
)


def plain_scan(text: str, ids: set[str]) -> set[str]:
    """The reference: every maximal word of the text, intersected with the ids."""
    return set(_WORD.findall(text)) & ids


@settings(max_examples=400, deadline=None)
@given(ids=IDS, pieces=PIECES)
def test_fast_scan_equals_the_plain_whole_word_scan(ids, pieces):
    text = "".join(pieces)
    assert ids_in_text(text, ids) == plain_scan(text, ids)


def test_ids_inside_longer_words_are_not_reported():
    ids = {"sb01", "up07"}
    assert ids_in_text('["xsb01","sb012","up07_","_up07","sb01-"]', ids) == {"sb01"}
    assert ids_in_text("up07", ids) == {"up07"}
    assert ids_in_text("", ids) == set()
