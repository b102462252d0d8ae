#!/usr/bin/env python3
"""The output contract of every analysis command, checked against its
published JSON Schema (docs/schema/ID.schema.json, as `gapscope-cli ID
--schema` writes it).

One analysis has five renderings of the same rows: json, csv, md, html and
text. Scripts read the JSON and the CSV, people read the rest; they must not
disagree. For every schema in --schemas and every TRACE this runs

    CLI ID TRACE --format F --cache-dir WORK/cache

and checks:

  json   stdout parses and validates against the schema (every error is
         reported with its path); a column whose "x-unit" is "time_ns" holds
         integers (or null) only.
  csv    (with --out WORK/csv/ID/STEM/) one NAME.csv per table, RFC 4180 with
         CRLF: figures.csv (when the schema has "x-figures": one data row),
         one ID.csv per "x-tables" entry and, for an analysis with findings
         ("x-finding-csv"), findings.csv, finding_figures.csv and
         finding_evidence.csv flattened from the JSON findings. The headers
         are the columns' "x-csv-header" in "x-columns" order, the row counts
         are the JSON's, and every cell is the JSON value as text (see
         expected_text) -- i.e. the CSV parses into the same rows and columns
         as the JSON.
  md     the Markdown has the JSON's rows: one table per block (figures
         that are not null, each table with rows, the three finding tables
         when there is a finding), a "## Title" heading before each when there
         is more than one block, and the data-row count of each is the JSON's.
  html   parses; one <table> per block, but every table is there with or
         without rows; each has the JSON's rows plus a header row.
  text   exits 0 and prints something.

Every run must exit 0. One line per (analysis, trace): "ok   ..." or the
"FAIL ..." lines that say where (analysis, trace, format, table, row,
column) and what (expected, got). Exit 1 when anything failed.

  output_contract_check.py --cli PATH --schemas DIR --work DIR TRACE [TRACE ...]
"""
import argparse
import csv
import errno
import glob
import html.parser
from html import escape as html_escape
import json
import os
import re
import shutil
import subprocess
import sys
import time

try:
    import jsonschema
except ImportError:  # Debian's python3-jsonschema (packaging/install-deps.sh)
    print("no python3-jsonschema: the output contract is not checked", flush=True)
    sys.exit(1 if os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1" else 77)

MAX_FAILS = 20  # failure lines printed per (analysis, trace, format)
FINDING_TABLES = ("findings", "finding_figures", "finding_evidence")
FINDING_TITLES = ("Findings", "The findings' figures", "The findings' evidence")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER_LIKE = re.compile(r"-[0-9.eE+-]+")


# --------------------------------------------------------------- reporting

class Report:
    """The failures of one (analysis, trace), capped per format."""

    def __init__(self, analysis, trace):
        self.analysis, self.trace = analysis, trace
        self.counts = {}
        self.failed_formats = []

    def fail(self, fmt, what, table=None, row=None, column=None,
             expected=None, got=None):
        n = self.counts.get(fmt, 0) + 1
        self.counts[fmt] = n
        if fmt not in self.failed_formats:
            self.failed_formats.append(fmt)
        if n > MAX_FAILS:
            return
        where = [self.analysis, self.trace, fmt]
        if table is not None:
            where.append(f"table={table}")
        if row is not None:
            where.append(f"row={row}")
        if column is not None:
            where.append(f"column={column!r}")
        line = "FAIL " + " ".join(where) + ": " + what
        if expected is not None or got is not None:
            line += f": expected {expected!r} got {got!r}"
        print(line, flush=True)

    def close(self):
        for fmt, n in self.counts.items():
            if n > MAX_FAILS:
                print(f"FAIL {self.analysis} {self.trace} {fmt}: "
                      f"... and {n - MAX_FAILS} more", flush=True)
        return not self.failed_formats


# --------------------------------------------------------------- the CLI

def run_cli(cli, args, tries=30):
    """Runs the CLI; retries while its binary is missing (being replaced)."""
    for attempt in range(tries):
        try:
            return subprocess.run([cli, *args], capture_output=True)
        except OSError as e:
            if e.errno not in (errno.ENOENT, errno.ETXTBSY, errno.EACCES) \
                    or attempt == tries - 1:
                raise
            time.sleep(1)
    raise AssertionError("unreachable")


def render(cli, analysis, trace, fmt, work, rep, extra=()):
    """stdout of one rendering, or None (and a failure) when it exits non-zero.
    `trace` is the command's inputs: one path, or a list (BASE NEW)."""
    inputs = trace if isinstance(trace, list) else [trace]
    args = [analysis, *inputs, "--format", fmt, *extra,
            "--cache-dir", os.path.join(work, "cache")]
    r = run_cli(cli, args)
    if r.returncode != 0:
        err = " ".join(r.stderr.decode("utf-8", "replace").split())
        rep.fail(fmt, f"exit status {r.returncode}: {err[:300]}")
        return None
    try:
        return r.stdout.decode("utf-8")
    except UnicodeDecodeError as e:
        rep.fail(fmt, f"stdout is not UTF-8: {e}")
        return None


# --------------------------------------------------------------- schema layout

def title_of(schema):
    """The analysis's title: its description up to the first ': '."""
    return schema.get("description", "").split(": ", 1)[0]


def column_schema(props, key):
    """The property schema of a (possibly dotted) column key."""
    parts = key.split(".")
    for part in parts[:-1]:
        props = props[part]["properties"]
    return props[parts[-1]]


def value_at(obj, key):
    """The JSON value of a (possibly dotted) key; a null group makes its
    members null."""
    for part in key.split("."):
        if obj is None:
            return None
        obj = obj.get(part)
    return obj


def has_findings(schema):
    return bool(schema.get("x-finding-csv"))


def table_layouts(schema):
    """[(table id, title, row schema)] for every CSV table but figures."""
    out = []
    for tid in schema.get("x-tables", []):
        tschema = schema["properties"][tid]
        out.append((tid, tschema.get("description", tid), tschema["items"]))
    if has_findings(schema):
        fcsv = schema["x-finding-csv"]
        for tid, title in zip(FINDING_TABLES, FINDING_TITLES):
            out.append((tid, title, fcsv[tid]))
    return out


# --------------------------------------------------------------- JSON rows

def finding_rows(findings):
    """The three flat finding tables of the JSON findings."""
    main, figures, evidence = [], [], []
    for i, f in enumerate(findings, 1):
        # Where its evidence starts: its first range, else its first slice.
        ev = f["evidence"]
        at = (ev["ranges"][0]["start_ns"] if ev["ranges"]
              else ev["slices"][0]["start_ns"] if ev["slices"] else None)
        main.append({"finding": i, "severity": f["severity"], "rule": f["rule"],
                     "device": f["device"], "message": f["message"],
                     "evidence_start_ns": at})
        for fig in f["figures"]:
            figures.append({"finding": i, "rule": f["rule"], "key": fig["key"],
                            "value": fig["value"], "unit": fig["unit"],
                            "of": fig["of"]})
        for r in f["evidence"]["ranges"]:
            evidence.append({"finding": i, "rule": f["rule"], "kind": "range",
                             "start_ns": r["start_ns"], "end_ns": r["end_ns"],
                             "name": None, "track": None})
        for s in f["evidence"]["slices"]:
            evidence.append({"finding": i, "rule": f["rule"], "kind": "slice",
                             "start_ns": s["start_ns"], "end_ns": s["end_ns"],
                             "name": s["name"], "track": s["track"]})
    return dict(zip(FINDING_TABLES, (main, figures, evidence)))


def json_tables(schema, doc):
    """{table id: list of JSON rows} for every CSV table but figures."""
    tables = {tid: doc.get(tid) or [] for tid in schema.get("x-tables", [])}
    if has_findings(schema):
        tables.update(finding_rows(doc.get("findings") or []))
    return tables


def non_null_figures(schema, doc):
    return [k for k in schema.get("x-figures", []) if value_at(doc, k) is not None]


# --------------------------------------------------------------- expected text

def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def plain_text(v, unit, decimals):
    """A JSON value as the CSV writes it, before the formula guard."""
    if v is None:
        return "unknown" if unit == "flag" else ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if unit == "share" and is_number(v):
        return f"{v * 100:.2f}"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.{decimals}f}"
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        if v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return "x".join(str(x) for x in v)
        return "; ".join(str(x) for x in v)
    return json.dumps(v)


def guard(text):
    """The CSV formula guard: a cell a spreadsheet would run gets a quote."""
    if text.startswith(FORMULA_START) and not NUMBER_LIKE.fullmatch(text):
        return "'" + text
    return text


def expected_text(v, col, row):
    unit = col.get("x-unit", "text")
    if unit.startswith("per row"):
        # The row's own unit; a share there is the fraction, as in JSON,
        # with four decimals at least.
        unit = row.get("unit") or "number"
        if unit == "share":
            return guard(plain_text(v, "number", max(4, col.get("x-decimals", 0))))
    return guard(plain_text(v, unit, col.get("x-decimals", 0)))


# --------------------------------------------------------------- json

def check_json(schema, text, rep):
    """The parsed document, validated against the schema; None when it
    does not parse or is not valid (the other formats are compared with a
    valid document only: their comparison assumes its shape)."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        rep.fail("json", f"does not parse: {e}")
        return None
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc),
                    key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    for e in errors:
        path = "/" + "/".join(str(p) for p in e.absolute_path)
        rep.fail("json", f"schema: at {path}: {e.message[:300]}")
    if errors or not isinstance(doc, dict):
        return None
    check_time_ns(schema, doc, rep)
    return doc


def check_time_ns(schema, doc, rep):
    """Columns and figures in "time_ns" hold integers or null."""
    def check(v, table, row, key):
        if v is not None and not (isinstance(v, int) and not isinstance(v, bool)):
            rep.fail("json", "time_ns value is not an integer", table, row, key,
                     "int or null", v)

    props = schema["properties"]
    for key in schema.get("x-figures", []):
        if column_schema(props, key).get("x-unit") == "time_ns":
            check(value_at(doc, key), "figures", 1, key)
    for tid in schema.get("x-tables", []):
        items = props[tid]["items"]
        keys = [k for k in items.get("x-columns", [])
                if column_schema(items["properties"], k).get("x-unit") == "time_ns"]
        rows = doc.get(tid)
        for i, row in enumerate(rows if isinstance(rows, list) else [], 1):
            for key in keys:
                check(value_at(row, key), tid, i, key)


# --------------------------------------------------------------- csv

def read_csv(path, rep, table):
    """The rows of a CSV file (CRLF line ends required), or None."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw and (b"\n" in raw.replace(b"\r\n", b"")):
        rep.fail("csv", "a line does not end with CRLF", table)
    with open(path, newline="", encoding="utf-8") as f:
        try:
            return list(csv.reader(f, strict=True))
        except (csv.Error, UnicodeDecodeError) as e:
            rep.fail("csv", f"does not parse: {e}", table)
            return None


def compare_header(rep, table, header, got):
    """The header row; on a difference, says which columns are missing,
    extra or out of order."""
    if got == header:
        return
    missing = [h for h in header if h not in got]
    extra = [h for h in got if h not in header]
    what = "header"
    if missing:
        what += f" lacks {missing}"
    if extra:
        what += f" has extra {extra}"
    if not missing and not extra:
        what += " has the columns in another order"
    rep.fail("csv", what, table, 0, None, header, got)


def compare_rows(rep, table, row_schema, keys, csv_rows, json_rows):
    """Header, row count and every cell of one CSV table against the JSON.
    Cells are matched by header, so a missing column is reported once (in
    the header) rather than on every row."""
    props = row_schema["properties"]
    cols = [column_schema(props, k) for k in keys]
    header = [c.get("x-csv-header") for c in cols]
    if not csv_rows:
        rep.fail("csv", "empty file (no header)", table)
        return
    got_header = csv_rows[0]
    compare_header(rep, table, header, got_header)
    where = {h: i for i, h in enumerate(got_header)}
    data = csv_rows[1:]
    if len(data) != len(json_rows):
        rep.fail("csv", "data row count", table, None, None,
                 len(json_rows), len(data))
    for i, (got_row, want) in enumerate(zip(data, json_rows), 1):
        if len(got_row) != len(got_header):
            rep.fail("csv", "cell count", table, i, None, len(got_header),
                     len(got_row))
            continue
        for key, col, head in zip(keys, cols, header):
            if head not in where:
                continue
            exp = expected_text(value_at(want, key), col, want)
            got = got_row[where[head]]
            if got != exp:
                rep.fail("csv", "cell", table, i, head, exp, got)


def check_csv(cli, analysis, trace, schema, doc, work, stem, rep):
    """The CSV tables against the JSON; returns how many tables there were."""
    out_dir = os.path.join(work, "csv", analysis, stem)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    text = render(cli, analysis, trace, "csv", work, rep, ["--out", out_dir + "/"])
    if text is None:
        return 0
    layouts = table_layouts(schema)
    expected_files = [tid + ".csv" for tid, _, _ in layouts]
    if schema.get("x-figures"):
        expected_files.insert(0, "figures.csv")
    printed = [os.path.basename(p) for p in text.splitlines() if p.strip()]
    for p in text.splitlines():
        if p.strip() and not os.path.isfile(p.strip()):
            rep.fail("csv", f"printed path is not a file: {p.strip()}")
    written = sorted(os.listdir(out_dir))
    if sorted(printed) != sorted(expected_files):
        rep.fail("csv", "printed paths", None, None, None,
                 sorted(expected_files), sorted(printed))
    if written != sorted(expected_files):
        rep.fail("csv", "files written", None, None, None,
                 sorted(expected_files), written)
    if doc is None:
        return len(written)

    figures = schema.get("x-figures", [])
    if figures and "figures.csv" in written:
        rows = read_csv(os.path.join(out_dir, "figures.csv"), rep, "figures")
        if rows is not None:
            compare_rows(rep, "figures", schema, figures, rows, [doc])
    tables = json_tables(schema, doc)
    for tid, _, row_schema in layouts:
        if tid + ".csv" not in written:
            continue
        rows = read_csv(os.path.join(out_dir, tid + ".csv"), rep, tid)
        if rows is not None:
            compare_rows(rep, tid, row_schema, row_schema["x-columns"], rows,
                         tables[tid])
    return len(written)


# --------------------------------------------------------------- md

def split_md_cells(line):
    """The cells of a Markdown table line, split on unescaped '|'."""
    cells, cur, i = [], "", 0
    body = line.strip()
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            cur += body[i:i + 2]
            i += 2
            continue
        if ch == "|":
            cells.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    cells.append(cur)
    return cells[1:-1]  # the line starts and ends with '|'


def parse_md(text):
    """[(heading or None, header cells, [row cells], [separator cells])]
    of the Markdown tables: runs of lines starting with '|', the second
    being the separator; a heading is the "## " line before a table."""
    tables, heading, lines = [], None, text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            heading = line[3:].strip()
        if line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(split_md_cells(lines[i]))
                i += 1
            tables.append((heading, block[0], block[2:], block[1:2]))
            heading = None
            continue
        i += 1
    return tables


def expected_blocks(schema, doc, every_table):
    """[(title, data rows)] in document order; every_table: HTML's rule."""
    blocks = []
    figures = schema.get("x-figures", [])
    n = len(non_null_figures(schema, doc))
    if figures and (n or every_table):
        blocks.append((title_of(schema), n))
    tables = json_tables(schema, doc)
    any_finding = bool(tables.get("findings"))
    for tid, title, _ in table_layouts(schema):
        rows = len(tables[tid])
        if tid in FINDING_TABLES:
            if every_table or any_finding:
                blocks.append((title, rows))
        elif every_table or rows:
            blocks.append((title, rows))
    return blocks


def check_md(schema, doc, text, rep):
    """The Markdown's blocks, their headings and their row counts."""
    tables = parse_md(text)
    want = expected_blocks(schema, doc, every_table=False)
    if len(tables) != len(want):
        rep.fail("md", "number of tables", None, None, None,
                 [t for t, _ in want], [h for h, *_ in tables])
    if not tables and not want and not text.strip():
        rep.fail("md", "empty document")
    for (heading, header, rows, sep), (title, n) in zip(tables, want):
        if len(want) > 1 and heading != title:
            rep.fail("md", "heading", title, None, None, title, heading)
        if len(want) == 1 and heading is not None:
            rep.fail("md", "a single block has a heading", title, None, None,
                     None, heading)
        if not sep or not all(re.fullmatch(r":?-+:?", c.strip()) for c in sep[0]):
            rep.fail("md", "no separator line", title)
        if len(rows) != n:
            rep.fail("md", "data row count", title, None, None, n, len(rows))
        for r, cells in enumerate(rows, 1):
            if len(cells) != len(header):
                rep.fail("md", "cell count", title, r, None, len(header), len(cells))


# --------------------------------------------------------------- html

class TableCounter(html.parser.HTMLParser):
    """Each <table>'s <tr> count and the <h2> text just before it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.h2, self.in_h2, self.last_h2 = [], "", False, None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.in_h2, self.h2 = True, ""
        elif tag == "table":
            self.depth += 1
            self.tables.append([self.last_h2, 0])
            self.last_h2 = None
        elif tag == "tr" and self.depth:
            self.tables[-1][1] += 1

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2, self.last_h2 = False, self.h2.strip()
        elif tag == "table":
            self.depth -= 1

    def handle_data(self, data):
        if self.in_h2:
            self.h2 += data


def check_html(schema, doc, text, rep):
    """The HTML's tables (all of them, rows or not) and their <tr> counts."""
    parser = TableCounter()
    try:
        parser.feed(text)
        parser.close()
    except Exception as e:  # html.parser is lenient; this is a backstop
        rep.fail("html", f"does not parse: {e}")
        return
    if "<html" not in text.lower() or "</html>" not in text.lower():
        rep.fail("html", "not a whole document")
    want = expected_blocks(schema, doc, every_table=True)
    got = parser.tables
    if len(got) != len(want):
        rep.fail("html", "number of tables", None, None, None,
                 [t for t, _ in want], [h for h, _ in got])
    for (heading, trs), (title, n) in zip(got, want):
        if heading is not None and heading != title:
            rep.fail("html", "heading", title, None, None, title, heading)
        if trs != n + 1:
            rep.fail("html", "<tr> count (data rows + header)", title, None, None,
                     n + 1, trs)


def parse_html_tables(text):
    parser = TableCounter()
    parser.feed(text)
    parser.close()
    return parser.tables


def nothing_to_show(md):
    """The one sentence of a Markdown document that holds no table (a
    result with nothing to show, e.g. "No GPU kernels in this trace."),
    else None."""
    if md is None or parse_md(md):
        return None
    lines = [l for l in md.split("\n") if l.strip()]
    return lines[0].strip() if len(lines) == 1 and lines[0].strip().endswith(".") else None


# --------------------------------------------------------------- driver

def trace_stem(trace):
    name = os.path.basename(trace.rstrip("/"))
    for ext in (".gz", ".zst", ".json"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name


def check_one(cli, analysis, schema, trace, work, first):
    """All five formats of one analysis on one trace; True when all agree.
    A comparison of two runs ("x-input": "two_runs") compares `first`, the
    first trace given, with `trace`."""
    name = os.path.basename(trace.rstrip("/"))
    stem = trace_stem(trace)
    if schema.get("x-input") == "two_runs":
        name = os.path.basename(first.rstrip("/")) + " vs " + name
        stem = trace_stem(first) + "_vs_" + stem
        trace = [first, trace]
    rep = Report(analysis, name)
    done = []
    text = render(cli, analysis, trace, "json", work, rep)
    doc = check_json(schema, text, rep) if text is not None else None
    done.append("json")
    n = check_csv(cli, analysis, trace, schema, doc, work, stem, rep)
    done.append(f"csv({n} tables)" if doc is not None
                else f"csv({n} tables, not compared: no valid JSON)")
    md = render(cli, analysis, trace, "md", work, rep)
    page = render(cli, analysis, trace, "html", work, rep)
    text = render(cli, analysis, trace, "table", work, rep)
    sentence = nothing_to_show(md)
    if sentence is not None:
        # Nothing to show: the readable formats say so in one sentence (the
        # same one), with no table; CSV and JSON keep their tables.
        if text is not None and text.strip() != sentence:
            rep.fail("text", "the sentence of an empty result", None, None, None, sentence,
                     text.strip())
        if page is not None and (parse_html_tables(page) or html_escape(sentence) not in page):
            rep.fail("html", "an empty result: its sentence and no table", None, None, None,
                     sentence, page[:200])
        done += ["md(empty)", "html(empty)", "text(empty)"]
    else:
        for fmt, check, out in (("md", check_md, md), ("html", check_html, page)):
            if out is not None and doc is not None:
                check(schema, doc, out, rep)
            done.append(fmt if doc is not None else f"{fmt}(not compared: no valid JSON)")
        if text is not None and not text.strip():
            rep.fail("text", "prints nothing")
        done.append("text")
    ok = rep.close()
    if ok:
        print(f"ok   {analysis}  {name}  {' '.join(done)}", flush=True)
    else:
        print(f"FAIL {analysis}  {name}  in: {' '.join(rep.failed_formats)}"
              f"  (ran: {' '.join(done)})", flush=True)
    return ok


def load_schemas(folder):
    schemas = []
    for path in sorted(glob.glob(os.path.join(folder, "*.schema.json"))):
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(schema)
        schemas.append((schema["properties"]["analysis"]["const"], schema))
    return schemas


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True, help="the gapscope-cli binary")
    ap.add_argument("--schemas", required=True, help="folder of ID.schema.json")
    ap.add_argument("--work", required=True, help="scratch folder (cache, csv)")
    ap.add_argument("traces", nargs="+", metavar="TRACE")
    args = ap.parse_args()

    schemas = load_schemas(args.schemas)
    if not schemas:
        sys.exit(f"no *.schema.json in {args.schemas}")
    os.makedirs(args.work, exist_ok=True)
    ok, missing = True, False
    present = [t for t in args.traces if os.path.exists(t)]
    for trace in args.traces:
        if not os.path.exists(trace):
            print(f"skip {trace} (missing)", flush=True)
            missing = True
            continue
        for analysis, schema in schemas:
            ok = check_one(args.cli, analysis, schema, trace, args.work, present[0]) and ok
    if not ok:
        return 1
    if missing:
        # CI has every input: a missing one is a broken install there. A
        # person's clone without ../shared: skipped, and ctest says so.
        if os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1":
            print("a trace is missing and GAPSCOPE_REQUIRE_INPUTS=1", flush=True)
            return 1
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
