"""The compiled part of the package: the Preferans double-dummy search (C, no dependencies).
Everything else is configured in pyproject.toml.

There is no pure-Python fallback: the robot solves many deals per decision, and the
pure-Python solver took seconds for a misère. Without a C compiler the install stops and
says what to install."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, PlatformError

NEEDS = ("cardtable builds its Preferans double-dummy search (engine/preferans/dds/_search.c) "
         "at install time and needs a C compiler and the Python headers: on Debian or Ubuntu "
         "`apt-get install gcc python3-dev`, then run pip install again.")


class BuildSearch(build_ext):
    """build_ext whose failure names what is missing rather than only the compiler's error."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, ExecError, PlatformError, OSError) as exc:
            raise SystemExit(f"error: {exc}\n{NEEDS}") from exc


setup(cmdclass={"build_ext": BuildSearch}, ext_modules=[Extension(
    "engine.preferans.dds._search", ["engine/preferans/dds/_search.c"],
    extra_compile_args=["-O2"])])
