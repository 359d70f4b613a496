"""council_filters.base.tuples: typing.NamedTuple's class syntax without typing.

A record class written on it must be the class typing makes: the same
fields, defaults, methods, docstring, repr, pickling and errors.
"""

from __future__ import annotations

import pickle
import typing

import pytest

from council_filters.base.tuples import NamedTuple


class Point(NamedTuple):
    """A point on the plane."""

    x: int
    y: int = 0
    label: str = "origin"

    @property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)


class TypedPoint(typing.NamedTuple):
    """A point on the plane."""

    x: int
    y: int = 0
    label: str = "origin"


class Named(Point):
    """A subclass of a record class, as the rules subclass their fields."""

    def shout(self) -> str:
        return self.label.upper()


def test_the_class_is_the_one_typing_makes() -> None:
    p = Point(3, -4)
    t = TypedPoint(3, -4)
    assert p == t == (3, -4, "origin")
    assert Point._fields == TypedPoint._fields == ("x", "y", "label")
    assert Point._field_defaults == TypedPoint._field_defaults
    assert list(Point.__annotations__) == list(TypedPoint.__annotations__)
    assert repr(p) == repr(t).replace("TypedPoint", "Point")
    assert Point.__doc__ == TypedPoint.__doc__ == "A point on the plane."
    assert Point.__qualname__ == "Point" and Point.__module__ == __name__
    assert p.norm1 == 7 and p.moved(2) == Point(5, -4)
    assert isinstance(p, tuple) and hash(p) == hash(t)
    assert pickle.loads(pickle.dumps(Point(1, 2, "a"))) == Point(1, 2, "a")
    n = Named(1, 2, "here")
    assert n.shout() == "HERE" and n.norm1 == 3
    assert pickle.loads(pickle.dumps(n)) == n and type(pickle.loads(pickle.dumps(n))) is Named


def test_the_errors_are_typing_s() -> None:
    with pytest.raises(TypeError):

        class Bad(NamedTuple):
            a: int = 1
            b: int

    with pytest.raises(AttributeError):

        class Worse(NamedTuple):
            a: int

            def _replace(self) -> None: ...

    with pytest.raises(TypeError):

        class Mixed(NamedTuple, int):  # type: ignore[misc]
            a: int
