"""A finding's schema problems, as council-consolidate words them (field and rule, never
the value), now that the schema libraries do the checking."""

from __future__ import annotations

import pytest

from council_filters.consolidate.finding import finding_problem

SECRET = "AKIAABCDEFGHIJKLMNOP"


@pytest.mark.parametrize(("record", "message"), [
    ({"origin": "s", "summary": "x"}, None),
    ({"origin": "s", "subject": "x", "line": 3, "decorations": ["a"]}, None),
    ({"origin": "s", "summary": "x", "line": 1.0}, "line: must be an integer or a null"),
    ({"origin": "s", "summary": "x", "line": True}, "line: must be an integer or a null"),
    ({"origin": "s", "summary": "x", "line": 0}, "line: must be >= 1"),
    ({"origin": "s", "summary": " "}, "needs a non-blank summary or subject"),
    ({"summary": "x"}, "origin: is required"),
    ({"summary": " "}, "origin: is required"),  # required comes before anyOf
    ({"origin": 5, "summary": " "}, "origin: must be a string"),  # properties before anyOf
    ({"origin": "", "summary": "x"}, "origin: must not be empty"),
    ({"origin": " ", "summary": "x"}, "origin: must not be blank"),
    ({"origin": "s" * 65, "summary": "x"}, "origin: longer than 64 characters"),
    ({"origin": "s", "subject": "x", "kind": "nope"}, 'kind: must be "finding"'),
    ({"origin": "s", "summary": "x", "decorations": [1]}, "decorations[]: must be a string"),
    ({"origin": "s", "summary": "x", "merged_count": 2.0},
     "merged_count: must be an integer or a null"),
    ({"origin": "s", "summary": "x", "file": 1, "line": 0}, "file: must be a string or a null"),
])
def test_problems_are_named_by_field_and_rule(record, message):
    assert finding_problem(record) == message


def test_a_problem_never_quotes_the_value():
    for record in ({"origin": SECRET * 4, "summary": "x"}, {"origin": "s", "line": SECRET},
                   {"origin": "s", "summary": "x", "decorations": [SECRET, 1]}):
        problem = finding_problem(record)
        assert problem and SECRET not in problem
