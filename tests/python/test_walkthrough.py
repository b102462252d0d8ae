"""docs/python.md runs as written, and prints what it shows.

Its ```python blocks run in order in one namespace, from a folder that
sees the clone's resources/ and tests/data/ (what it writes stays there);
a ```text block right after a python block is what that block prints.
GAPSCOPE_UPDATE_GOLDEN=1 rewrites those outputs (review the diff).
"""

import contextlib
import io
import os
import re

from conftest import SOURCE

DOC = SOURCE / "docs" / "python.md"
BLOCK = re.compile(r"```(python|text)\n(.*?)```", re.S)


def test_the_walkthrough_runs_and_prints_what_it_shows(tmp_path, monkeypatch):
    (tmp_path / "resources").symlink_to(SOURCE / "resources")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "data").symlink_to(SOURCE / "tests" / "data")
    monkeypatch.chdir(tmp_path)
    text = DOC.read_text()
    blocks = list(BLOCK.finditer(text))
    assert sum(1 for b in blocks if b.group(1) == "python") >= 5
    namespace = {"__name__": "walkthrough"}
    update = os.environ.get("GAPSCOPE_UPDATE_GOLDEN") == "1"
    replaced = []  # (span of a text block's body, what was printed)
    for i, block in enumerate(blocks):
        if block.group(1) != "python":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block.group(2), "%s block %d" % (DOC.name, i), "exec"), namespace)
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if following is not None and following.group(1) == "text":
            if update:
                replaced.append((following.span(2), out.getvalue()))
            else:
                assert out.getvalue() == following.group(2), "block %d printed:\n%s" % (
                    i, out.getvalue())
        else:
            assert out.getvalue() == "", "block %d prints but the page shows nothing" % i
    assert (tmp_path / "step_time.png").stat().st_size > 1000
    assert (tmp_path / "step3.png").read_bytes()[:4] == b"\x89PNG"
    if update:
        for (start, end), printed in reversed(replaced):
            text = text[:start] + printed + text[end:]
        DOC.write_text(text)
        (SOURCE / "docs" / "screenshots" / "python-step-time.png").write_bytes(
            (tmp_path / "step_time.png").read_bytes())
