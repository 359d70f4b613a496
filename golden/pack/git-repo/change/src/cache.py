"""A small LRU cache decorator with no expiry."""

import functools


def lru(maxsize):
    def wrap(fn):
        return functools.lru_cache(maxsize=maxsize)(fn)
    return wrap
