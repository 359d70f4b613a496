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

The tuple class is made here as ``collections.namedtuple`` makes it (the same
members, field accessors, constructor signature, ``repr`` and pickling), so
that ``collections`` is not imported either: it and what it imports cost about
2.5 ms of CPU at every start.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from _collections import _tuplegetter

    def namedtuple(name, fields, *, defaults, module):
        """``collections.namedtuple(name, fields, defaults=defaults, module=module)``."""
        fields = tuple(map(str, fields))
        for field in (name, *fields):
            if not field.isidentifier():
                raise ValueError(f"Type names and field names must be valid identifiers: "
                                 f"{field!r}")
        for field in fields:
            if field.startswith("_"):
                raise ValueError(f"Field names cannot start with an underscore: {field!r}")
        if len(set(fields)) != len(fields):
            raise ValueError(f"Encountered duplicate field name in {fields!r}")
        defaults = tuple(defaults)
        if len(defaults) > len(fields):
            raise TypeError("Got more default values than field names")
        arguments = ", ".join(fields)
        if len(fields) == 1:
            arguments += ","
        make_tuple = tuple.__new__
        # (the constructor's signature is the fields', as namedtuple writes it)
        new = eval(f"lambda _cls, {', '.join(fields)}: _tuple_new(_cls, ({arguments}))",  # noqa: S307
                   {"_tuple_new": make_tuple, "__builtins__": {},
                    "__name__": f"namedtuple_{name}"})
        new.__name__ = "__new__"
        new.__doc__ = f"Create new instance of {name}({', '.join(fields)})"
        if defaults:
            new.__defaults__ = defaults
        size = len(fields)
        shown = "(" + ", ".join(f"{f}=%r" for f in fields) + ")"

        @classmethod  # type: ignore[misc]
        def _make(cls, iterable):
            made = make_tuple(cls, iterable)
            if len(made) != size:
                raise TypeError(f"Expected {size} arguments, got {len(made)}")
            return made

        _make.__func__.__doc__ = f"Make a new {name} object from a sequence or iterable"

        def _replace(self, /, **kwds):
            made = self._make(map(kwds.pop, fields, self))
            if kwds:
                raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
            return made

        _replace.__doc__ = f"Return a new {name} object replacing specified fields with new values"

        def __repr__(self):
            """Return a nicely formatted representation string"""
            return self.__class__.__name__ + shown % self

        def _asdict(self):
            """Return a new dict which maps field names to their values."""
            return dict(zip(self._fields, self, strict=True))

        def __getnewargs__(self):
            """Return self as a plain tuple.  Used by copy and pickle."""
            return tuple(self)

        for method in (new, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
            method.__qualname__ = f"{name}.{method.__name__}"
        namespace = {
            "__doc__": f"{name}({', '.join(fields)})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": dict(zip(fields[size - len(defaults):], defaults, strict=True)),
            "__new__": new,
            "_make": _make,
            "_replace": _replace,
            "__repr__": __repr__,
            "_asdict": _asdict,
            "__getnewargs__": __getnewargs__,
            "__match_args__": fields,
        }
        for index, field in enumerate(fields):
            namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
        cls = type(name, (tuple,), namespace)
        cls.__module__ = module
        return cls

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
