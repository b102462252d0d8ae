"""Shared fixtures of the Python module's tests (run by ctest: python_module*).

The module comes from PYTHONPATH (the build tree's python/ folder), the CLI
it is compared with from GAPSCOPE_CLI, the real traces from
GAPSCOPE_SHARED_DIR. Tests marked `shared` need ../shared; ctest runs them
apart (python_module_shared, skipped without it).
"""

import json
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = SOURCE / "resources" / "samples" / "h200_cnn_dataloader.pt.trace.json.gz"
RECORDED = SOURCE / "tests" / "data" / "recorded"
INPUT_BOUND = RECORDED / "h200_transformer_input_bound.pt.trace.json.gz"
WORKERS = RECORDED / "h200_transformer_workers.pt.trace.json.gz"
JAX_XSPACE = RECORDED / "jax_mlp.xplane.pb"


def pytest_configure(config):
    config.addinivalue_line("markers", "shared: needs the real traces of ../shared")


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("GAPSCOPE_CLI")
    if not path:
        pytest.fail("GAPSCOPE_CLI is not set (ctest sets it)")
    return path


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("index-cache"))


@pytest.fixture(scope="session")
def shared_dir():
    return pathlib.Path(os.environ.get("GAPSCOPE_SHARED_DIR", SOURCE.parent / "shared"))


def run_cli_json(cli, args, cache_dir):
    """The CLI's --format json for these arguments, parsed."""
    done = subprocess.run(
        [cli, *args, "--format", "json", "--cache-dir", cache_dir],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)
