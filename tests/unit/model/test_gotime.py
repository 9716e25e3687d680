"""time.Parse(time.RFC3339, ...) (crdtool.model.gotime) against a differential table.

Source of the rows: Go's src/time/format_test.go (parseTests' RFC3339 rows, parseErrorTests' RFC3339
rows, dayOutOfRangeTests and monthOutOfRangeTests restated in the RFC 3339 layout, the leap years of
checkTime's dates), and src/time/format.go's Parse for what those tests leave implicit (the order of
the range checks, the offset limits `> 24` / `> 60`, the fraction the layout lacks, quote()).
Accepted rows give the moment back in UTC as metav1.Time writes it.
"""

from __future__ import annotations

import pytest

from crdtool.model.gotime import GoTime, TimeParseError, go_duration, parse_rfc3339

L = '"2006-01-02T15:04:05Z07:00"'


def _cannot(value: str, elem: str, layout_elem: str) -> str:
    return f'parsing time "{value}" as {L}: cannot parse "{elem}" as "{layout_elem}"'


def _range(value: str, what: str) -> str:
    return f'parsing time "{value}": {what} out of range'


ACCEPTED = [
    # format_test.go parseTests (RFC3339)
    ("2010-02-04T21:00:57-08:00", "2010-02-05T05:00:57Z"),
    ("2010-02-04T21:00:57.012345678-08:00", "2010-02-05T05:00:57Z"),
    # format_test.go dayOutOfRangeTests, the accepted days, in this layout
    ("2010-01-31T21:00:57Z", "2010-01-31T21:00:57Z"), ("2012-02-28T21:00:57Z", "2012-02-28T21:00:57Z"),
    ("2012-02-29T21:00:57Z", "2012-02-29T21:00:57Z"), ("2010-03-31T21:00:57Z", "2010-03-31T21:00:57Z"),
    ("2010-04-30T21:00:57Z", "2010-04-30T21:00:57Z"), ("2010-05-31T21:00:57Z", "2010-05-31T21:00:57Z"),
    ("2010-06-30T21:00:57Z", "2010-06-30T21:00:57Z"), ("2010-07-31T21:00:57Z", "2010-07-31T21:00:57Z"),
    ("2010-08-31T21:00:57Z", "2010-08-31T21:00:57Z"), ("2010-09-30T21:00:57Z", "2010-09-30T21:00:57Z"),
    ("2010-10-31T21:00:57Z", "2010-10-31T21:00:57Z"), ("2010-11-30T21:00:57Z", "2010-11-30T21:00:57Z"),
    ("2010-12-31T21:00:57Z", "2010-12-31T21:00:57Z"), ("2000-02-29T00:00:00Z", "2000-02-29T00:00:00Z"),
    # monthOutOfRangeTests' accepted month
    ("2010-01-01T00:00:00Z", "2010-01-01T00:00:00Z"),
    # format.go: a one-digit hour ("15" is not zero-padded), a fraction with ',' or '.' of any length,
    # offsets up to 24 hours and 60 minutes, year 0000, offsets moving the date
    ("2010-02-04T1:00:57Z", "2010-02-04T01:00:57Z"), ("2010-02-04T21:00:57,5Z", "2010-02-04T21:00:57Z"),
    ("2010-02-04T21:00:57.0123456789012Z", "2010-02-04T21:00:57Z"),
    ("2010-02-04T21:00:57+24:00", "2010-02-03T21:00:57Z"), ("2010-02-04T21:00:57-00:60", "2010-02-04T22:00:57Z"),
    ("2010-02-04T21:00:57+24:60", "2010-02-03T20:00:57Z"), ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"),
    ("0000-01-01T00:00:00+01:00", "-0001-12-31T23:00:00Z"), ("9999-12-31T23:59:59-01:00", "10000-01-01T00:59:59Z"),
    ("2016-12-31T23:59:59-00:01", "2017-01-01T00:00:59Z"), ("2020-02-29T23:30:00-01:00", "2020-03-01T00:30:00Z"),
    ("2021-03-01T00:30:00+01:00", "2021-02-28T23:30:00Z"), ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
    ("2010-02-04T21:00:59.999999999Z", "2010-02-04T21:00:59Z"), ("2010-02-04T00:00:00-23:59", "2010-02-04T23:59:00Z"),
]

REFUSED = [
    # format_test.go parseErrorTests (RFC3339)
    ("2006-01-02T15:04:05Z07:00", 'parsing time "2006-01-02T15:04:05Z07:00": extra text: "07:00"'),
    ("2006-01-02T15:04_abc", _cannot("2006-01-02T15:04_abc", "_abc", ":")),
    ("2006-01-02T15:04:05_abc", _cannot("2006-01-02T15:04:05_abc", "_abc", "Z07:00")),
    ("2006-01-02T15:04:05Z_abc", 'parsing time "2006-01-02T15:04:05Z_abc": extra text: "_abc"'),
    ("2010-02-04T21:00:67.012345678-08:00", _range("2010-02-04T21:00:67.012345678-08:00", "second")),
    # format_test.go dayOutOfRangeTests, the refused days, in this layout
    *[(v, _range(v, "day")) for v in (
        "2010-01-99T21:00:57Z", "2010-01-32T21:00:57Z", "2010-02-29T21:00:57Z", "2010-03-32T21:00:57Z",
        "2010-04-31T21:00:57Z", "2010-05-32T21:00:57Z", "2010-06-31T21:00:57Z", "2010-07-32T21:00:57Z",
        "2010-08-32T21:00:57Z", "2010-09-31T21:00:57Z", "2010-10-32T21:00:57Z", "2010-11-31T21:00:57Z",
        "2010-12-32T21:00:57Z", "2010-12-00T21:00:57Z", "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z")],
    # monthOutOfRangeTests, in this layout
    ("2010-00-01T00:00:00Z", _range("2010-00-01T00:00:00Z", "month")),
    ("2010-13-01T00:00:00Z", _range("2010-13-01T00:00:00Z", "month")),
    # parseErrorTests' hour, minute, second checks, in this layout
    ("2010-02-04T24:00:00Z", _range("2010-02-04T24:00:00Z", "hour")),
    ("2010-02-04T21:61:57Z", _range("2010-02-04T21:61:57Z", "minute")),
    ("2010-02-04T21:00:60Z", _range("2010-02-04T21:00:60Z", "second")),
    ("2010-02-04T99:99:99Z", _range("2010-02-04T99:99:99Z", "hour")),
    # the zone: a range error before a bad sign or bad minute digits (format.go)
    ("2020-01-01T00:00:00+25:0+", _range("2020-01-01T00:00:00+25:0+", "time zone offset hour")),
    ("2020-01-01T00:00:00+25:00", _range("2020-01-01T00:00:00+25:00", "time zone offset hour")),
    ("2020-01-01T00:00:00+00:61", _range("2020-01-01T00:00:00+00:61", "time zone offset minute")),
    ("2020-01-01T00:00:00+99:99", _range("2020-01-01T00:00:00+99:99", "time zone offset minute")),
    ("2020-01-01T00:00:00*25:00", _range("2020-01-01T00:00:00*25:00", "time zone offset hour")),
    ("2020-01-01T00:00:00*01:00", _cannot("2020-01-01T00:00:00*01:00", "*01:00", "Z07:00")),
    ("2020-01-01T00:00:00+0a:00", _cannot("2020-01-01T00:00:00+0a:00", "+0a:00", "Z07:00")),
    ("2020-01-01T00:00:00+a5:99", _cannot("2020-01-01T00:00:00+a5:99", "+a5:99", "Z07:00")),
    ("2020-01-01T00:00:00+01:0", _cannot("2020-01-01T00:00:00+01:0", "+01:0", "Z07:00")),
    ("2020-01-01T00:00:00+0100", _cannot("2020-01-01T00:00:00+0100", "+0100", "Z07:00")),
    ("2020-01-01T00:00:00+01:00:00", 'parsing time "2020-01-01T00:00:00+01:00:00": extra text: ":00"'),
    ("2020-01-01T00:00:00z", _cannot("2020-01-01T00:00:00z", "z", "Z07:00")),
    ("2020-01-01T00:00:00", _cannot("2020-01-01T00:00:00", "", "Z07:00")),
    ("2020-01-01T00:00:00 Z", _cannot("2020-01-01T00:00:00 Z", " Z", "Z07:00")),
    ("2020-01-01T00:00:00.Z", _cannot("2020-01-01T00:00:00.Z", ".Z", "Z07:00")),
    ("2020-01-01T00:00:00ZZ", 'parsing time "2020-01-01T00:00:00ZZ": extra text: "Z"'),
    # each element's own errors
    ("", _cannot("", "", "2006")), ("20", _cannot("20", "20", "2006")), ("20x0-01-01T00:00:00Z",
                                                                         _cannot("20x0-01-01T00:00:00Z",
                                                                                 "20x0-01-01T00:00:00Z", "2006")),
    ("-2020-01-01T00:00:00Z", _cannot("-2020-01-01T00:00:00Z", "-2020-01-01T00:00:00Z", "2006")),
    ("12020-01-01T00:00:00Z", _cannot("12020-01-01T00:00:00Z", "0-01-01T00:00:00Z", "-")),
    ("2020/01/01T00:00:00Z", _cannot("2020/01/01T00:00:00Z", "/01/01T00:00:00Z", "-")),
    ("2020-1-01T00:00:00Z", _cannot("2020-1-01T00:00:00Z", "1-01T00:00:00Z", "01")),
    ("2020-01-1T00:00:00Z", _cannot("2020-01-1T00:00:00Z", "1T00:00:00Z", "02")),
    ("2020-01-01 00:00:00Z", _cannot("2020-01-01 00:00:00Z", " 00:00:00Z", "T")),
    ("2020-01-01t00:00:00Z", _cannot("2020-01-01t00:00:00Z", "t00:00:00Z", "T")),
    ("2020-01-01T:00:00Z", _cannot("2020-01-01T:00:00Z", ":00:00Z", "15")),
    ("2020-01-01T00:0:00Z", _cannot("2020-01-01T00:0:00Z", "0:00Z", "04")),
    ("2020-01-01T00:00:0Z", _cannot("2020-01-01T00:00:0Z", "0Z", "05")),
    ("2020-01-01T00-00:00Z", _cannot("2020-01-01T00-00:00Z", "-00:00Z", ":")),
    ("2020-01-01", _cannot("2020-01-01", "", "T")),
    ("2020-01-01T", _cannot("2020-01-01T", "", "15")),
    ("2020-01-01T00:00:00.123", _cannot("2020-01-01T00:00:00.123", "", "Z07:00")),
    ("2020-01-01T123:00:00Z", _cannot("2020-01-01T123:00:00Z", "3:00:00Z", ":")),
    ("2020-13-32T25:61:61Z", _range("2020-13-32T25:61:61Z", "month")),
    ("2020-02-30T25:00:00Z", _range("2020-02-30T25:00:00Z", "hour")),
    ("2020-02-30T00:00:00Z", _range("2020-02-30T00:00:00Z", "day")),
    ("2020-02-30T00:00:00+01:00x", 'parsing time "2020-02-30T00:00:00+01:00x": extra text: "x"'),
    # quote(): control and non-ASCII bytes as \x escapes, quotes and backslashes escaped
    ("2020-01-01T00:00:00\x07", _cannot("2020-01-01T00:00:00\\x07", "\\x07", "Z07:00")),
    ("2020-01-01T00:00:00Zé", 'parsing time "2020-01-01T00:00:00Z\\xc3\\xa9": extra text: "\\xc3\\xa9"'),
    ('2020-01-01T00:00:00Z"\\', 'parsing time "2020-01-01T00:00:00Z\\"\\\\": extra text: "\\"\\\\"'),
    ("２０２０-01-01T00:00:00Z", _cannot("\\xef\\xbc\\x92\\xef\\xbc\\x90\\xef\\xbc\\x92\\xef\\xbc\\x90-01-01T00:00:00Z",
                                        "\\xef\\xbc\\x92\\xef\\xbc\\x90\\xef\\xbc\\x92\\xef\\xbc\\x90-01-01T00:00:00Z",
                                        "2006")),
    ("2020-01-01T00:00:00Z\x7f", 'parsing time "2020-01-01T00:00:00Z\x7f": extra text: "\x7f"'),
]


def test_the_table_is_large_enough() -> None:
    assert len(ACCEPTED) + len(REFUSED) >= 100


@pytest.mark.parametrize(("value", "utc"), ACCEPTED)
def test_accepted(value: str, utc: str) -> None:
    assert parse_rfc3339(value).utc_rfc3339() == utc


@pytest.mark.parametrize(("value", "message"), REFUSED)
def test_refused(value: str, message: str) -> None:
    with pytest.raises(TimeParseError) as err:
        parse_rfc3339(value)
    assert str(err.value) == message


def test_fields_and_datetime() -> None:
    t = parse_rfc3339("2010-02-04T21:00:57.012345678-08:00")
    assert t == GoTime(2010, 2, 4, 21, 0, 57, 12345678, -28800)
    assert t.to_datetime().isoformat() == "2010-02-05T05:00:57.012345+00:00"
    with pytest.raises(ValueError):
        parse_rfc3339("0000-01-01T00:00:00Z").to_datetime()


def test_go_durations() -> None:
    assert [go_duration(n) for n in (30 * 10**9, 10**9, 1_500_000_000, 500_000_000, 90 * 10**9,
                                     3600 * 10**9, 1500, -1500)] == [
        "30s", "1s", "1.5s", "500ms", "1m30s", "1h0m0s", "1.5\u00b5s", "-1.5\u00b5s"]
