"""Build hook: the optional C line machine for council-redact.

Everything else is in pyproject.toml.  The extension is optional: without a C
compiler the install goes on and the Python machine runs (same output).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "council_filters._machine",
            ["council_filters/_machine.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ]
)
