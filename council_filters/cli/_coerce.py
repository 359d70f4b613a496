"""Option values typed ``str``, ``int``, ``bool`` or ``list[str]`` taken without a pydantic model.

Recent typer converts every option value through a pydantic ``TypeAdapter`` it
builds per parameter on first use: importing pydantic for that, and building the
adapters, costs more than the rest of a filter's start-up (about 0.2 s of a
``council-pack review``).  :func:`install` gives the parameters of those plain
types a coercion that returns a value typer's would return unchanged (a string
as it is, a decimal number within the option's ``min``/``max``, a flag's
bool, a list of strings) and hands anything else to typer's own coercion, so
every message about a bad value stays typer's.  A typer without this machinery
(older releases, click types) is left as it is.
"""

from __future__ import annotations

import importlib
from typing import Any


def _typer_layer() -> Any:
    """typer's private coercion layer (recent releases), or None."""
    try:
        return importlib.import_module("typer._coercion")
    except ImportError:  # pragma: no cover - depends on the installed typer
        return None


_LAYER = _typer_layer()

_PLAIN = (str, int, bool, list[str])
_DIGITS_MAX = 18  # longer numbers go to typer's coercion


def install(command: Any) -> None:
    """Give ``command``'s parameters of the plain types (its subcommands' and the help
    option click adds on first use too) the coercion of this module; the others keep
    typer's."""
    if _LAYER is None:
        return
    for param in getattr(command, "params", ()):
        _install(param)
    made = getattr(command, "get_help_option", None)
    if made is not None:

        def get_help_option(ctx: Any) -> Any:
            option = made(ctx)
            if option is not None:
                _install(option)
            return option

        command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        install(sub)


def _install(param: Any) -> None:
    desc = getattr(param, "type_descriptor", None)
    try:
        if (desc is not None and getattr(param, "_runtime_param", False) is None
                and desc.annotation in _PLAIN and not desc.is_file
                and desc.parameter_info.parser is None
                and not getattr(desc.parameter_info, "clamp", False)):
            param._runtime_param = _Plain(desc.parameter_info, desc.annotation, desc)
    except (AttributeError, TypeError):  # a typer whose layer is shaped otherwise: its own
        return


if _LAYER is not None:

    class _Plain(_LAYER.RuntimeParam):  # type: ignore[misc, name-defined]
        """A plain value as typer's adapter would give it back; anything else to typer."""

        _descriptor: Any

        def __init__(self, parameter_info: Any, annotation: Any, descriptor: Any) -> None:
            super().__init__(parameter_info=parameter_info, annotation=annotation)
            object.__setattr__(self, "_descriptor", descriptor)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            kind = self.annotation
            if kind is str and type(value) is str:
                return value
            if kind is bool and type(value) is bool:
                return value
            if kind is int:
                number = _decimal(value)
                info = self.parameter_info
                if number is not None and (info.min is None or number >= info.min) and (
                        info.max is None or number <= info.max):
                    return number
            if kind == list[str] and type(value) in (list, tuple) and all(
                    type(v) is str for v in value):
                return list(value)
            typer_own = _LAYER.build_runtime_param(self._descriptor)
            return typer_own._coerce_value(value, param=param, ctx=ctx)


def _decimal(value: Any) -> int | None:
    """``value`` as an int when it is one, or a plain decimal numeral (``0``, ``60000``:
    ASCII digits, no sign, no leading zero, no spaces); else None."""
    if type(value) is int:
        return value
    if (type(value) is str and 0 < len(value) <= _DIGITS_MAX and value.isascii()
            and value.isdigit() and (value == "0" or value[0] != "0")):
        return int(value)
    return None
