"""Every DataFrame equals the CLI's JSON on real traces of ../shared (see
its PROVENANCE.md): HTA's V100 rank, a 2021 ResNet-50 of the TensorBoard
plugin's samples, and a folder of two profiler cycles of one process."""

import pytest

import gapscope
from conftest import run_cli_json
from test_frames_equal_cli import ONE_TRACE, assert_equal, opened

pytestmark = pytest.mark.shared

REAL = [
    "traces/hta/tests/data/df_index_resolver/df_index_resolver.json.gz",
    "traces/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
]


@pytest.mark.parametrize("relative", REAL, ids=lambda p: p.split("/")[-1])
def test_real_traces_equal_the_cli(relative, shared_dir, cli, cache_dir):
    path = shared_dir / relative
    assert path.exists(), path
    trace = opened(path, cache_dir)
    for analysis in ONE_TRACE:
        theirs = run_cli_json(cli, [analysis, str(path)], cache_dir)
        assert_equal(trace.result(analysis), theirs, "%s %s" % (analysis, path.name))


def test_cycles_of_one_process_open_the_newest(shared_dir, cli, cache_dir):
    folder = shared_dir / "traces/kineto/tb_plugin/samples/resnet50_num_workers_0"
    trace = gapscope.open(str(folder), cache_dir=cache_dir)
    assert any("profiler cycles of one process" in n for n in trace.notes), trace.notes
    theirs = run_cli_json(cli, ["steps", str(folder)], cache_dir)
    assert_equal(trace.result("steps"), theirs, "steps of the folder")
