"""Build hook: the optional C line machine for council-redact.

Everything else is in pyproject.toml.  The extension is optional: without a C
compiler the install goes on and the Python machine runs (same output).  A
wheel built that way holds no compiled code, so it is tagged as one
(``py3-none-any``, installable on any platform); a wheel with the compiled
module keeps the interpreter and platform tags.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1: the wheel package's command
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]


class OptionalBuildExt(build_ext):
    """build_ext that remembers whether the optional extensions were built."""

    built: bool | None = None  # None: build_ext did not run

    def run(self) -> None:
        super().run()  # a failed optional extension is a warning, not an error
        OptionalBuildExt.built = all(
            os.path.exists(self.get_ext_fullpath(ext.name)) for ext in self.extensions
        )


class WheelForWhatWasBuilt(bdist_wheel):
    """Tag the wheel by what it holds: pure Python when the extension was not built."""

    def get_tag(self) -> tuple[str, str, str]:
        if OptionalBuildExt.built is False:
            self.root_is_pure = True
            return ("py3", "none", "any")
        return super().get_tag()


setup(
    ext_modules=[
        Extension(
            "council_filters.redaction._machine",
            ["council_filters/redaction/_machine.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt, "bdist_wheel": WheelForWhatWasBuilt},
)
