"""``typing.NamedTuple``'s class syntax, without importing ``typing`` at run time.

Importing ``typing`` costs about 3 ms (with ``contextlib``), a twentieth of
``council-redact --rules extended`` over megabytes of code, and the record
classes of the redaction are all it is needed for there.  The type checker
reads the real ``typing.NamedTuple`` (imported under ``TYPE_CHECKING``); at
run time a class written::

    class Point(NamedTuple):
        '''A point.'''
        x: int
        y: int = 0

        def norm(self) -> int: ...

is the class ``typing`` makes of it: ``collections.namedtuple`` of the
annotated names in order, a value given in the body the default of its
field, and every other name of the body (the docstring, methods, properties,
the qualified name) set on it.  As with ``typing``, a field without a default
after one with a default, a base besides ``NamedTuple`` and a body redefining
what ``namedtuple`` defines are errors.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from collections import namedtuple

    # The names typing.NamedTuple leaves to namedtuple, and those it refuses.
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
    _PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                             "_field_defaults", "_make", "_replace", "_asdict", "_source"})

    class _Maker(type):
        def __new__(mcs, name, bases, ns):  # noqa: N804 - a metaclass's first argument
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, name, bases, ns)
            if bases != (NamedTuple,):
                raise TypeError("can only inherit from a NamedTuple type")
            fields = tuple(ns.get("__annotations__", {}))
            defaults = []
            for field in fields:
                if field in ns:
                    defaults.append(ns[field])
                elif defaults:
                    raise TypeError(f"Non-default namedtuple field {field} cannot follow "
                                    "default field(s)")
            cls = namedtuple(name, fields, defaults=defaults, module=ns["__module__"])
            cls.__annotations__ = cls.__new__.__annotations__ = dict(ns.get("__annotations__", {}))
            for key, value in ns.items():
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in fields:
                    setattr(cls, key, value)
            return cls

    class NamedTuple(metaclass=_Maker):
        """The base of a record class (see the module's text)."""
