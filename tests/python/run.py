"""Runs the Python module's tests (ctest: python_module, python_module_shared).

  run.py [--shared-default DIR] [--shared] PYTEST_ARGS...

The real traces are at $GAPSCOPE_SHARED_DIR, else at --shared-default
(the build's ../shared).

Without pytest or pandas (Debian's python3-pytest, python3-pandas), or
with --shared and no ../shared, it exits 77 (ctest: skipped), unless
GAPSCOPE_REQUIRE_INPUTS=1 (CI), where that fails.
"""

import os
import pathlib
import sys

SKIP = 77


def main():
    args = sys.argv[1:]
    default = None
    if args[:1] == ["--shared-default"]:
        default, args = args[1], args[2:]
    shared = "--shared" in args
    args = [a for a in args if a != "--shared"]
    required = os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1"
    try:
        import pandas  # noqa: F401
        import pytest
    except ImportError as e:
        print("python_module: %s (install python3-pytest and python3-pandas)" % e)
        return 1 if required else SKIP
    here = pathlib.Path(__file__).resolve().parent
    shared_dir = pathlib.Path(
        os.environ.get("GAPSCOPE_SHARED_DIR") or default or here.parents[2] / "shared")
    os.environ["GAPSCOPE_SHARED_DIR"] = str(shared_dir)  # (conftest's shared_dir)
    if shared and not (shared_dir / "traces").is_dir():
        print("python_module_shared: no real traces at %s: skipped" % shared_dir)
        return 1 if required else SKIP
    os.chdir(here)
    marker = "shared" if shared else "not shared"
    return pytest.main(["-q", "-p", "no:cacheprovider", "-m", marker, *args])


if __name__ == "__main__":
    sys.exit(main())
