"""``base.memo``: functools' caches without importing functools."""

from __future__ import annotations

import functools

import pytest

from council_filters.base import memo


def test_lru_cache_bounds_and_counts_as_functools_does() -> None:
    calls: list[int] = []

    def square(n: int) -> int:
        """Square a number."""
        calls.append(n)
        return n * n

    ours = memo.lru_cache(maxsize=2)(square)
    ref = functools.lru_cache(maxsize=2)(square)
    for f in (ours, ref):
        calls.clear()
        assert [f(n) for n in (1, 2, 1, 3, 2, 1)] == [1, 4, 1, 9, 4, 1]
        assert calls == [1, 2, 3, 2, 1]  # (2 was dropped for 3, then 1 for 2)
    assert tuple(ours.cache_info()) == tuple(ref.cache_info()) == (1, 5, 2, 2)
    assert ours.cache_info().misses == 5 and ours.cache_info().currsize == 2
    assert repr(ours.cache_info()) == repr(ref.cache_info())
    assert ours.__name__ == "square" and ours.__doc__ == "Square a number."
    assert ours.__wrapped__ is square
    assert ours.cache_parameters() == {"maxsize": 2, "typed": False}
    ours.cache_clear()
    assert ours.cache_info().currsize == 0


def test_cache_is_unbounded_and_the_bare_decorator_works() -> None:
    seen: list[int] = []

    @memo.cache
    def twice(n: int) -> int:
        seen.append(n)
        return 2 * n

    @memo.lru_cache
    def thrice(n: int) -> int:
        return 3 * n

    assert [twice(n) for n in list(range(300)) * 2] == [2 * n for n in range(300)] * 2
    assert seen == list(range(300))
    assert twice.cache_info().maxsize is None and thrice(2) == 6
    assert thrice.cache_info().maxsize == 128
    with pytest.raises(TypeError):
        memo.lru_cache("big")  # type: ignore[arg-type]
