"""The compiled part of the package: the Preferans double-dummy search (C, no dependencies).
Everything else is configured in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "engine.preferans.dds._search", ["engine/preferans/dds/_search.c"],
    extra_compile_args=["-O2"])])
