"""The master games' headers as the library stores them (games.record_clean): every way the
collection writes a date read into one form, unknown dates said as unknown, the padding inside
a name taken out, and the names in pinyin for a search in Latin letters."""

from __future__ import annotations

import pytest

from games.record_clean import clean_date, clean_name, is_latin_query, latin_key, pinyin_key


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("4/17/1996", "1996-04-17"),
        ("2001.11.17.", "2001-11-17"),
        ("2001年9月15日", "2001-09-15"),
        ("1999年8月20日-25日", "1999-08-20"),
        ("19800825", "1980-08-25"),
        ("19980408上午", "1998-04-08"),
        ("20091114-09：00", "2009-11-14"),
        ("2010-12-01 09:0", "2010-12-01"),
        ("1995 8 15", "1995-08-15"),
        ("2001。3。17", "2001-03-17"),
        ("２００１年３月１７日", "2001-03-17"),
        ("l999年9月19日", "1999-09-19"),
        ("23-9-2009", "2009-09-23"),
        ("14-10-2009", "2009-10-14"),
        ("10/13/1996", "1996-10-13"),
        ("11/21/97", "1997-11-21"),
        ("86-4-29", "1986-04-29"),
        ("1982年6月", "1982-06"),
        ("1996.4", "1996-04"),
        ("1996-04-00", "1996-04"),
        ("19961000", "1996-10"),
        ("1960", "1960"),
        ("1987年", "1987"),
        # unknown: the placeholder, no year, not a date, nothing
        ("2000-01-01", ""),
        ("0000-00-00", ""),
        ("7.11", ""),
        ("11月21日", ""),
        ("2001-13-40", ""),
        ("&nbsp;", ""),
        ("", ""),
    ],
)
def test_every_way_a_record_writes_a_date_is_stored_in_one_form(written: str, stored: str) -> None:
    assert clean_date(written) == stored


def test_a_padded_name_is_joined_and_a_place_before_a_name_is_kept() -> None:
    assert clean_name("吕  钦") == clean_name("吕 钦") == clean_name("吕\u3000钦") == "吕钦"
    assert clean_name(" 胡荣华 ") == "胡荣华"
    assert clean_name("廣東 呂欽") == "廣東 呂欽"
    assert clean_name("越南  梅青明") == "越南 梅青明"


def test_names_in_pinyin_match_a_search_in_latin_letters() -> None:
    assert pinyin_key("胡荣华") == pinyin_key("胡榮華") == "huronghua"
    assert pinyin_key("呂欽") == pinyin_key("吕钦") == "luqin"
    assert "zengyiqian" in pinyin_key("曾益谦").split()  # a surname read as a surname
    assert "luqin" in pinyin_key("廣東 呂欽")
    for query in ("Lü Qin", "Lu Qin", "lv qin", "LU:QIN", "Lǚ Qīn"):
        assert latin_key(query) == "luqin", query
    assert (
        is_latin_query("Hu Ronghua") and not is_latin_query("胡荣华") and not is_latin_query("  ")
    )
