"""A finding placed by the code it quotes or the URL it cites (issue: every finding at its
real place): the code block right under a finding's title names the file in a comment,
a ``title=`` or a citation info string; a blob URL written out, or a ``file://`` link,
holds the path and the line.  Every review below is written for these tests; none is a
reviewer's text."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading
from council_filters.verdict.locations import find_location


def read(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester")
    return [(f.get("file"), f.get("line")) for f in got.findings]


TITLES_OVER_CODE = """## Issues

**1. The mean of an empty list divides by zero**

```python
# stats/mean.py:14
return sum(xs) / len(xs)
```

**2. The walk stops one element early**

```js title="lib/walk.js"
for (let i = 0; i < n - 1; i++) {}
```

**3. The flag is read twice**
```12:15:cmd/flags.go
v := os.Getenv("X")
```
"""


def test_the_code_under_each_title_places_that_finding_not_the_one_before() -> None:
    assert read(TITLES_OVER_CODE) == [("stats/mean.py", 14), ("lib/walk.js", None),
                                      ("cmd/flags.go", 12)]


def test_a_finding_with_its_own_place_keeps_it_over_its_codes() -> None:
    text = """## Issues

**1. The retry never backs off** (`net/retry.go:88`)

```go
// net/other.go:3
time.Sleep(time.Second)
```
"""
    assert read(text) == [("net/retry.go", 88)]


@pytest.mark.parametrize(("text", "want"), [
    ("see https://github.com/acme/app/blob/4f2e1a9/api/rate.py#L5-L9 for the loop",
     ("api/rate.py", 5, 9)),
    ("https://gitlab.example.org/grp/app/-/blob/main/docs/usage.md#L7", ("docs/usage.md", 7, None)),
    ("the lock [lock.rs](file:///home/dev/app/src/lock.rs#L7) is kept",
     ("/home/dev/app/src/lock.rs", 7, None)),
    ("`src/first.py:3`, then https://github.com/acme/app/blob/main/src/second.py#L9",
     ("src/first.py", 3, None)),
])
def test_blob_urls_written_out_and_file_links(text: str, want: tuple) -> None:
    loc = find_location(text)
    assert loc is not None and (loc.file, loc.line, loc.end_line) == want


def test_a_blob_url_without_a_line_is_no_located_place() -> None:
    assert find_location("https://github.com/acme/app/blob/main/src/a.py") is None


def test_many_urls_are_scanned_in_linear_time() -> None:
    import time

    def timed(n: int) -> float:
        text = " ".join(f"https://example.org/a/b/c{i}/page.html" for i in range(n))
        start = time.process_time()
        for _ in range(5):
            find_location(text)
        return time.process_time() - start

    small, large = timed(400), timed(1_600)
    assert large < max(small, 0.01) * 10


@pytest.mark.parametrize(("cited", "want"), [
    ("/home/runner/work/shop/shop/api/cart.py", "api/cart.py"),
    ("/github/workspace/api/cart.py", "api/cart.py"),
    ("/builds/team/shop/api/cart.py", "api/cart.py"),
    ("/workspaces/shop/api/cart.py", "api/cart.py"),
    ("/workspace/cli/src/server.ts", "cli/src/server.ts"),
    ("/home/dev/elsewhere/api/cart.py", "/home/dev/elsewhere/api/cart.py"),  # unknown: as is
])
def test_a_path_in_a_ci_or_container_checkout_is_made_relative(cited: str, want: str) -> None:
    text = f"## Findings\n\n- [P1] `{cited}:12` — the total is rounded twice\n"
    got = reading.read(text.encode(), "tester", "/srv/checkout")
    assert [(f["file"], f["line"]) for f in got.findings] == [(want, 12)]
