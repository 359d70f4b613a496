"""``functools.lru_cache`` and ``functools.cache``, without importing ``functools``.

``functools`` imports ``collections`` (with ``operator``, ``keyword``,
``reprlib`` and ``types``): about 3 ms of CPU at every start, a thirtieth of
``council-redact --rules extended`` over 21 MB of code, for a decorator.  The
cache itself is CPython's compiled one (``_functools._lru_cache_wrapper``,
what ``functools.lru_cache`` wraps too): the same cache, hits and limits; only
``cache_info()`` answers a plain tuple class of the same fields instead of a
named tuple.  Another interpreter without that module gets ``functools``'s.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from functools import cache as cache
    from functools import lru_cache as lru_cache
else:
    try:
        from _functools import _lru_cache_wrapper
    except ImportError:  # pragma: no cover - another interpreter
        from functools import cache, lru_cache
    else:

        class CacheInfo(tuple):
            """``(hits, misses, maxsize, currsize)``, as ``cache_info()`` gives them."""

            __slots__ = ()

            def __new__(cls, hits, misses, maxsize, currsize):
                return tuple.__new__(cls, (hits, misses, maxsize, currsize))

            hits = property(lambda self: self[0])
            misses = property(lambda self: self[1])
            maxsize = property(lambda self: self[2])
            currsize = property(lambda self: self[3])

            def __repr__(self):
                hits, misses, maxsize, currsize = self
                return (f"CacheInfo(hits={hits!r}, misses={misses!r}, maxsize={maxsize!r}, "
                        f"currsize={currsize!r})")

        _ASSIGNED = ("__module__", "__name__", "__qualname__", "__doc__", "__annotations__")

        def _wrap(func, maxsize, typed):
            wrapper = _lru_cache_wrapper(func, maxsize, typed, CacheInfo)
            for name in _ASSIGNED:
                try:
                    value = getattr(func, name)
                except AttributeError:
                    continue
                setattr(wrapper, name, value)
            wrapper.__dict__.update(getattr(func, "__dict__", {}))
            wrapper.__wrapped__ = func
            wrapper.cache_parameters = lambda: {"maxsize": maxsize, "typed": typed}
            return wrapper

        def lru_cache(maxsize=128, typed=False):
            """``functools.lru_cache`` (with or without arguments)."""
            if callable(maxsize) and isinstance(typed, bool):
                return _wrap(maxsize, 128, typed)  # used as @lru_cache
            if isinstance(maxsize, int) and maxsize < 0:
                maxsize = 0
            elif maxsize is not None and not isinstance(maxsize, int):
                raise TypeError("Expected first argument to be an integer, a callable, or None")

            def decorating(func):
                return _wrap(func, maxsize, typed)

            return decorating

        def cache(func):
            """``functools.cache``: an unbounded :func:`lru_cache`."""
            return _wrap(func, None, False)
