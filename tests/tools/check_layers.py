#!/usr/bin/env python3
"""Checks the layering of core/ against the one statement of it.

The layers and what each may use are the gapscope_layer(NAME DEPS ...) calls
in core/CMakeLists.txt (the build gives each layer only its DEPS' include
roots, so an upward include already fails to compile; this check also gives
a readable list, catches what the compiler cannot see, and runs without a
build). It fails when:
  - the DEPS graph has a cycle, or names a layer that does not exist;
  - a folder of core/ is not a layer, or a source file sits at core/'s top;
  - a file of layer L includes "X/..." of a layer X that is neither L nor
    reachable from L through DEPS (an upward or sideways include);
  - a quoted include names no file (neither "layer/file.h" nor a sibling),
    climbs with "..", or a layer header is included with <...>;
  - anything in core/ includes Qt (<Q...>, <Qt...>);
  - an analysis reads a category string (Trace::categoryName): analyses
    ask for slice kinds (model/slice_kind.h), which the producers'
    vocabularies decide at import;
  - the model or an analysis names an input format (InputFormat::…):
    what a trace's things mean comes from its reader and vocabulary;
  - an analysis, a report or a widget holds a producer's name as a string
    literal ("ProfilerStep#", "step_num", "nn.Module: ", "cuda_runtime",
    …): what a producer's names mean is decided at import, by the
    vocabulary in core/model/vocabulary/, and read as facts (kinds, roles,
    flags, extracted args, Trace::producer).
Usage: check_layers.py [--root DIR]   (DIR holds CMakeLists.txt and core/)
       check_layers.py --self-test    (plants each kind of violation in a
                                       copy of core/ and expects it caught)
Exit status 0 when clean, 1 with one line per violation on stderr.
"""
import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT_HEADER = re.compile(r"^(Q[A-Z]\w*|Qt\w*)(/|$)")
CATEGORY_READ = re.compile(r"\bcategoryName\s*\(")
FORMAT_CHECK = re.compile(r"\bInputFormat::\w+")
# The producers' own names, which only their vocabularies and readers may
# spell out. Distinctive ones only: a column titled "Kernel" is ours.
PRODUCER_LITERALS = {
    # PyTorch (Kineto, record_function, torch.compile, emit_nvtx, DataLoader)
    "ProfilerStep#", "nn.Module: ", "## Call CompiledFxGraph", "Torch-Compiled Region",
    "CompiledFunction", "TorchDynamo", "AOTDispatcher", "## Compiled Autograd", ", seq = ",
    ", op_id = ", ", sizes = [", "__next__", "_SingleProcessDataLoaderIter",
    "_MultiProcessingDataLoaderIter", "pin_memory", "gpu_memcpy", "gpu_memset", "cpu_op",
    "cuda_runtime", "cuda_driver", "gpu_user_annotation", "python_function", "ac2g",
    "schemaVersion", "deviceProperties", "distributedInfo", "External id",
    # TensorFlow and JAX
    "step_num", "IteratorGetNext", "Iterator::", "/device:", "/host:", "TensorFlow Ops",
    "Memory Usage", "correlation_id",
    # Nsight Systems
    "CUDA kernel", "CUDA runtime", "CUDA memcpy", "NVTX (GPU projection)", "nsightSystems",
}
# Where the check for them applies: the layers above the model, and the viewer.
LITERAL_CHECKED = ("core/analysis", "core/report", "widgets")
STRING_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def code_literals(text):
    """(line, literal) for every string literal outside comments."""
    out, line, i, n = [], 1, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        elif c == "'":  # a character literal: '"' is no string
            m = re.match(r"'(?:[^'\\\n]|\\.)*'", text[i:])
            if m:
                i += m.end()
                continue
        elif c == '"':
            m = STRING_LITERAL.match(text, i)
            if m:
                out.append((line, m.group(1)))
                i = m.end()
                continue
        i += 1
    return out


def check_literals(root):
    problems = []
    for top in LITERAL_CHECKED:
        for path in sorted((root / top).rglob("*")):
            if not path.is_file() or path.suffix not in SOURCE_SUFFIXES:
                continue
            rel = path.relative_to(root).as_posix()
            for number, literal in code_literals(path.read_text(errors="replace")):
                if literal in PRODUCER_LITERALS:
                    problems.append(f'{rel}:{number}: "{literal}" is a producer\'s name: read '
                                    f"the fact the vocabulary decided at import (kind, role, "
                                    f"flag, extracted arg, Trace::producer)")
    return problems


def read_layers(cmake_text):
    """{layer: [deps]} from the gapscope_layer(...) calls."""
    layers = {}
    for call in re.finditer(r"gapscope_layer\(([^)]*)\)", cmake_text):
        words = call.group(1).split()
        if not words or words[0] == "name":  # the function's own definition
            continue
        name, deps, mode = words[0], [], None
        for w in words[1:]:
            if w in ("DEPS", "SOURCES"):
                mode = w
            elif mode == "DEPS":
                deps.append(w)
        layers[name] = deps
    return layers


def closure(layers, start):
    seen, todo = set(), list(layers.get(start, []))
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo.extend(layers.get(d, []))
    return seen


def find_cycle(layers):
    state = {}

    def visit(n, path):
        state[n] = "open"
        for d in layers.get(n, []):
            if state.get(d) == "open":
                return path + [n, d]
            if d not in state:
                found = visit(d, path + [n])
                if found:
                    return found
        state[n] = "done"
        return None

    for n in layers:
        if n not in state:
            found = visit(n, [])
            if found:
                return found
    return None


def check(root):
    core = root / "core"
    problems = []
    layers = read_layers((core / "CMakeLists.txt").read_text())
    if not layers:
        return ["core/CMakeLists.txt: no gapscope_layer(...) calls found"]
    for name, deps in layers.items():
        for d in deps:
            if d not in layers:
                problems.append(f"core/CMakeLists.txt: layer {name} depends on unknown layer {d}")
    cycle = find_cycle(layers)
    if cycle:
        problems.append("core/CMakeLists.txt: the layers form a cycle: " + " -> ".join(cycle))
    for entry in sorted(core.iterdir()):
        if entry.is_dir() and entry.name not in layers:
            problems.append(f"core/{entry.name}/: a folder that is not a layer")
        if entry.is_file() and entry.suffix in SOURCE_SUFFIXES:
            problems.append(f"core/{entry.name}: sources belong in a layer's folder")
    for path in sorted(core.rglob("*")):
        if not path.is_file() or path.suffix not in SOURCE_SUFFIXES:
            continue
        rel = path.relative_to(root).as_posix()
        layer = path.relative_to(core).parts[0]
        allowed = {layer} | closure(layers, layer)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if layer in ("model", "analysis") and FORMAT_CHECK.search(line) and \
                    "InputFormat inputFormat" not in line:
                problems.append(f"{rel}:{number}: the {layer} asks which format a trace came "
                                f"from; readers and vocabularies say what things mean")
            if layer == "analysis" and CATEGORY_READ.search(line):
                problems.append(f"{rel}:{number}: an analysis reads a category string; "
                                f"ask for the slice's kind (model/slice_kind.h)")
            m = INCLUDE.match(line)
            if not m:
                continue
            kind, target = m.groups()
            where = f"{rel}:{number}"
            if ".." in target.split("/"):
                problems.append(f'{where}: "{target}": no relative climbing, name the layer')
                continue
            top = target.split("/")[0] if "/" in target else None
            if kind == "<":
                if QT_HEADER.match(target):
                    problems.append(f"{where}: core/ must not use Qt (<{target}>)")
                elif top in layers:
                    problems.append(f"{where}: <{target}>: include layer headers with quotes")
                continue
            if top in layers:
                if top not in allowed:
                    problems.append(f'{where}: layer {layer} includes "{target}" of layer {top}, '
                                    f"which it does not depend on")
                elif not (core / target).is_file():
                    problems.append(f'{where}: "{target}" does not exist')
            elif not (path.parent / target).is_file():
                problems.append(f'{where}: "{target}" is neither a layer header nor a sibling')
    return problems + check_literals(root)


def self_test(root):
    """Each planted violation must be reported; the clean copy must pass."""
    plants = [
        ("util/types.h", '#include "model/trace.h"\n', "includes \"model/trace.h\""),
        ("index/interval_set.h", '#include "format/raw_event.h"\n', "of layer format"),
        ("analysis/idle_gaps.h", "#include <QString>\n", "must not use Qt"),
        ("model/trace.h", '#include "model/no_such_file.h"\n', "does not exist"),
        ("index/interval_set.h", '#include "../model/trace.h"\n', "no relative climbing"),
        ("util/types.h", "#include <loader/loader.h>\n", "with quotes"),
        ("analysis/idle_gaps.cpp", "// t.categoryName(s.category) == \"kernel\"\n",
         "reads a category string"),
        ("model/trace.cpp", "// if (inputFormat == InputFormat::XSpace)\n", "which format"),
        ("analysis/steps.cpp", 'const char* kMark = "ProfilerStep#";\n', "a producer's name"),
        ("report/run_report.cpp", 'auto k = "nsightSystems"; // "x"\n', "a producer's name"),
    ]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp)
        shutil.copytree(root / "core", copy / "core")
        shutil.copytree(root / "widgets", copy / "widgets")
        if check(copy):
            failures.append("the unmodified copy of core/ is not clean: " + "; ".join(check(copy)))
        for file, line, expect in plants:
            target = copy / "core" / file
            original = target.read_text()
            target.write_text(line + original)
            found = check(copy)
            if not any(expect in p for p in found):
                failures.append(f"planting {line.strip()} in {file} was not reported")
            target.write_text(original)
        cmake = copy / "core" / "CMakeLists.txt"
        original = cmake.read_text()
        cmake.write_text(original.replace("gapscope_layer(util DEPS", "gapscope_layer(util DEPS loader"))
        if not any("cycle" in p for p in check(copy)):
            failures.append("a cycle util -> loader -> ... -> util was not reported")
        cmake.write_text(original)
        (copy / "core" / "stray").mkdir()
        if not any("not a layer" in p for p in check(copy)):
            failures.append("a stray folder core/stray/ was not reported")
    for f in failures:
        print("self-test: " + f, file=sys.stderr)
    return not failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--self-test", action="store_true")
    opts = parser.parse_args()
    if opts.self_test:
        ok = self_test(opts.root)
        print("check_layers self-test: " + ("every planted violation was caught" if ok else "FAILED"))
        return 0 if ok else 1
    problems = check(opts.root)
    for p in problems:
        print(p, file=sys.stderr)
    layers = read_layers((opts.root / "core" / "CMakeLists.txt").read_text())
    print(f"check_layers: {len(layers)} layers, {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
