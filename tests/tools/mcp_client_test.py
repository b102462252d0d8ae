#!/usr/bin/env python3
"""A scripted Model Context Protocol client against `gapscope-cli mcp`.

It starts the server as an agent does (a command speaking JSON-RPC 2.0 on
stdin and stdout, one message per line) and checks the protocol and the
answers against the CLI itself:
  - initialize (the version asked for), notifications, ping, tools/list
    (one tool per analysis of docs/schema, each with an object inputSchema),
    batches, a parse error, an unknown method and an unknown tool;
  - tools/call on the bundled sample: each analysis's structuredContent is
    `gapscope-cli ID --format json` with its tables paged, a long table
    walked page by page equals the CLI's whole table, the text summary
    names the figures;
  - diff of the two recorded runs equals `gapscope-cli diff`;
  - a bad path and bad arguments are tool errors (isError) naming them,
    an argument the tool does not take among them;
  - render answers a PNG image;
  - a trace written again at the same path is read again;
  - hostile messages (deep nesting, over 16 MiB, an id without a method,
    a notification of initialize, a batch under 2025-06-18) are refused
    and the server goes on;
  - nothing but protocol messages is written on stdout.

  mcp_client_test.py --cli GAPSCOPE_CLI --source SOURCE_DIR
"""

import argparse
import base64
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time


class Client:
    def __init__(self, cli, cache_dir):
        self.proc = subprocess.Popen(
            [cli, "mcp", "--cache-dir", cache_dir],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.next_id = 0

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def send_line(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        assert line, "the server ended: %s" % self.proc.stderr.read()
        return json.loads(line)  # every line on stdout is a protocol message

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        answer = self.read()
        assert answer["jsonrpc"] == "2.0" and answer["id"] == self.next_id, answer
        return answer

    def call(self, name, arguments):
        answer = self.request("tools/call", {"name": name, "arguments": arguments})
        assert "result" in answer, answer
        return answer["result"]

    def close(self):
        self.proc.stdin.close()
        rest = self.proc.stdout.read()
        assert rest == "", "stdout after the last answer: %r" % rest[:200]
        assert self.proc.wait(timeout=60) == 0


def cli_json(cli, args, cache_dir):
    done = subprocess.run([cli, *args, "--format", "json", "--cache-dir", cache_dir],
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def without_pages(document, tables):
    return {k: v for k, v in document.items() if k not in tables and k != "paging"}


def check(cli, source, cache_dir):
    sample = str(source / "resources/samples/h200_cnn_dataloader.pt.trace.json.gz")
    recorded = source / "tests/data/recorded"
    base = str(recorded / "h200_transformer_input_bound.pt.trace.json.gz")
    new = str(recorded / "h200_transformer_workers.pt.trace.json.gz")
    analyses = sorted(p.name[: -len(".schema.json")]
                      for p in (source / "docs/schema").glob("*.schema.json"))
    assert analyses, "no schemas in docs/schema"

    c = Client(cli, cache_dir)
    init = c.request("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                    "clientInfo": {"name": "mcp_client_test", "version": "1"}})
    result = init["result"]
    assert result["protocolVersion"] == "2025-03-26", result
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["serverInfo"]["name"] == "gapscope"
    c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert c.request("ping")["result"] == {}

    tools = {t["name"]: t for t in c.request("tools/list")["result"]["tools"]}
    for a in analyses:
        assert a in tools, "no tool for the analysis %s" % a
        schema = tools[a]["inputSchema"]
        assert schema["type"] == "object" and schema["required"], a
    assert {"open_trace", "render"} <= set(tools)
    assert set(tools["kernels"]["inputSchema"]["properties"]) >= {"trace", "top", "offset", "limit"}

    # Each analysis of one trace: the CLI's JSON, every table paged.
    for a in analyses:
        if "trace" not in tools[a]["inputSchema"]["properties"]:
            continue
        answer = c.call(a, {"trace": sample, "limit": 3})
        assert answer["isError"] is False, answer
        assert json.loads(answer["content"][1]["text"]) == answer["structuredContent"]
        doc = answer["structuredContent"]
        theirs = cli_json(cli, [a, sample], cache_dir)
        paged = set(doc["paging"])
        if a == "info":  # what the index cache did differs between the two opens
            doc.pop("index_cache", None)
            theirs.pop("index_cache", None)
        assert without_pages(doc, paged) == without_pages(theirs, paged), a
        for table, page in doc["paging"].items():
            assert page["total"] == len(theirs[table]), (a, table)
            assert doc[table] == theirs[table][:3], (a, table)
            assert page["next_offset"] == (3 if len(theirs[table]) > 3 else None)
        assert answer["content"][0]["text"].startswith(tools[a]["title"])

    # A long table, page by page, is the CLI's whole table.
    theirs = cli_json(cli, ["kernels", sample], cache_dir)["kernels"]
    assert len(theirs) > 10
    rows, offset = [], 0
    while offset is not None:
        page = c.call("kernels", {"trace": sample, "table": "kernels", "offset": offset,
                                  "limit": 7})["structuredContent"]
        rows += page["kernels"]
        offset = page["paging"]["kernels"]["next_offset"]
    assert rows == theirs
    summary = c.call("account", {"trace": sample})["content"][0]["text"]
    assert "busy_share: 3.9 %" in summary and "idle_by_cause.input" in summary, summary

    # Options as the CLI's: a step, a threshold, a count.
    step = c.call("steps", {"trace": sample, "step": 3, "min_gap_us": 50})["structuredContent"]
    assert step["steps"] == cli_json(cli, ["steps", sample, "--step", "3", "--min-gap-us", "50"],
                                     cache_dir)["steps"]

    # Two runs.
    diff = c.call("diff", {"base": base, "new": new, "fail_if": ["step_time>+5%"],
                           "limit": 500})
    assert diff["isError"] is False, diff
    theirs = cli_json(cli, ["diff", base, new, "--fail-if", "step_time>+5%"], cache_dir)
    doc = diff["structuredContent"]
    assert doc.pop("gate_status") == 0
    assert without_pages(doc, set(doc["paging"])) == without_pages(theirs, set(doc["paging"]))
    assert doc["metrics"] == theirs["metrics"]

    # Errors: the tool's (isError, naming what), the protocol's.
    bad = c.call("gaps", {"trace": "/no/such/trace.json"})
    assert bad["isError"] is True and "/no/such/trace.json" in bad["content"][0]["text"]
    bad = c.call("kernels", {"trace": sample, "top": "five"})
    assert bad["isError"] is True and "top takes an integer" in bad["content"][0]["text"]
    bad = c.call("steps", {"trace": sample, "step": 99})
    assert bad["isError"] is True and "no step 99" in bad["content"][0]["text"]
    bad = c.call("kernels", {"trace": sample, "limit": 100000})
    assert bad["isError"] is True and "limit" in bad["content"][0]["text"]
    unknown = c.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert unknown["error"]["code"] == -32602
    assert c.request("no/such/method")["error"]["code"] == -32601
    c.send_line("{not json")
    assert c.read()["error"]["code"] == -32700
    c.send([{"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": "b", "method": "ping"}])
    batch = c.read()
    assert [m["id"] for m in batch] == ["a", "b"], batch

    # A picture of a step.
    if "render" in tools:
        picture = c.call("render", {"trace": sample, "step": 3, "width": 800})
        assert picture["isError"] is False, picture
        image = [p for p in picture["content"] if p["type"] == "image"][0]
        assert image["mimeType"] == "image/png"
        assert base64.b64decode(image["data"])[:8] == b"\x89PNG\r\n\x1a\n"

    opened = c.call("open_trace", {"path": sample})
    assert opened["isError"] is False and "Trace" in opened["content"][0]["text"]

    # Arguments a tool does not take are refused, not ignored.
    bad = c.call("advice", {"trace": sample, "step": 3})
    assert bad["isError"] is True and "no argument 'step'" in bad["content"][0]["text"], bad
    bad = c.call("kernels", {"trace": sample, "topp": 3})
    assert bad["isError"] is True and "no argument 'topp'" in bad["content"][0]["text"], bad
    bad = c.call("render", {"trace": sample, "dark": "yes"})
    assert bad["isError"] is True and "dark takes true or false" in bad["content"][0]["text"]
    assert "finding_figures" not in tools["advice"]["inputSchema"]["properties"]["table"]["enum"]

    # A trace written again at the same path is read again.
    with tempfile.TemporaryDirectory() as folder:
        path = str(pathlib.Path(folder) / "run.pt.trace.json.gz")
        shutil.copyfile(sample, path)
        first = c.call("info", {"trace": path})["structuredContent"]["span_start_ns"]
        shutil.copyfile(base, path)
        os.utime(path, (time.time() + 5, time.time() + 5))
        again = c.call("info", {"trace": path})["structuredContent"]["span_start_ns"]
        assert again != first
        assert again == cli_json(cli, ["info", path], cache_dir)["span_start_ns"]

    # Hostile messages: deep nesting, an initialize as a notification, an id
    # without a method, a line over 16 MiB; the server goes on answering.
    c.send_line('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + "[" * 30000 +
                "]" * 30000 + "}}")
    assert c.read()["error"]["code"] == -32600
    c.send({"jsonrpc": "2.0", "method": "initialize", "params": {}})
    c.send({"jsonrpc": "2.0", "id": 77})
    assert c.read() == {"jsonrpc": "2.0", "id": 77,
                        "error": {"code": -32600, "message": "Invalid Request: no method"}}
    c.send_line('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + "a" * (17 << 20) +
                '"}}')
    assert c.read()["error"]["code"] == -32600
    assert c.request("ping")["result"] == {}
    c.close()

    # Under 2025-06-18 there are no batches.
    c = Client(cli, cache_dir)
    assert c.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "t", "version": "1"}}
                     )["result"]["protocolVersion"] == "2025-06-18"
    c.send([{"jsonrpc": "2.0", "id": "a", "method": "ping"}])
    assert c.read()["error"]["code"] == -32600
    c.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--source", required=True, type=pathlib.Path)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as cache_dir:
        check(args.cli, args.source, cache_dir)
    print("mcp_client_test: the server speaks the protocol and answers what the CLI answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
