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


def test_the_tuple_class_has_namedtuples_members() -> None:
    """The class is made without ``collections``: what ``namedtuple`` gives, member
    by member, on the same fields and defaults."""
    import collections
    import inspect

    ref = collections.namedtuple("Point", ("x", "y", "label"), defaults=(0, "origin"))
    p, r = Point(1, 2), ref(1, 2)
    assert Point(1) == ref(1) == (1, 0, "origin")
    assert tuple(p) == tuple(r) and repr(p) == repr(r)
    assert p._asdict() == r._asdict() and type(p._asdict()) is dict
    assert p._replace(y=5) == r._replace(y=5) and type(p._replace(y=5)) is Point
    assert Point._make([4, 5, "z"]) == ref._make([4, 5, "z"])
    assert type(Point._make((4, 5, "z"))) is Point
    def params(cls: typing.Any) -> list[tuple[str, object, object]]:
        return [(a.name, a.kind, a.default) for a in inspect.signature(cls).parameters.values()]

    assert params(Point) == params(ref)
    assert Point.__match_args__ == ref.__match_args__
    assert Point.__new__.__defaults__ == ref.__new__.__defaults__ == (0, "origin")
    assert Point.x.__doc__ == ref.x.__doc__ and Point.__slots__ == ()
    assert p.__getnewargs__() == (1, 2, "origin")
    def raised(bad: typing.Any, cls: typing.Any) -> type[BaseException] | None:
        try:
            bad(cls)
        except (TypeError, ValueError) as exc:
            return type(exc)
        return None

    for bad in (lambda c: c(), lambda c: c(1, 2, 3, 4), lambda c: c(1, z=2),
                lambda c: c._make([1]), lambda c: c(1, 2)._replace(z=1)):
        assert raised(bad, Point) is raised(bad, ref) is not None
    for field_list in (("_a",), ("a b",), ("b", "_a")):
        with pytest.raises(ValueError):
            collections.namedtuple("T", field_list)
        with pytest.raises(ValueError):
            type("T", (NamedTuple,), {"__annotations__": dict.fromkeys(field_list, int),
                                      "__module__": __name__})
