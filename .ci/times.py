#!/usr/bin/env python3
"""Where a CI run's minutes went, per build folder given: the compile and
link time from its .ninja_log (CPU seconds of the last build of each
output, and what the compiler cache served), and the slowest tests of its
ctest JUnit files. Usage: times.py BUILD_DIR..."""
import pathlib
import sys
import xml.etree.ElementTree as ET


def ninja_steps(build):
    """The last entry of each output in .ninja_log: (seconds, output)."""
    log = build / ".ninja_log"
    if not log.is_file():
        return []
    last = {}
    for line in log.read_text().splitlines():
        if line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 5:
            continue
        start, end, _, output, _ = parts
        last[output] = (int(end) - int(start)) / 1000.0
    return [(seconds, output) for output, seconds in last.items()]


def slowest_tests(build):
    tests = []
    for junit in sorted(build.glob("junit*.xml")):
        try:
            root = ET.parse(junit).getroot()
        except ET.ParseError as e:
            print(f"   {junit}: unreadable ({e})")
            continue
        for case in root.iter("testcase"):
            status = "skipped" if case.find("skipped") is not None else case.get("status", "")
            tests.append((float(case.get("time", "0")), case.get("name"), junit.name, status))
    return sorted(tests, reverse=True)


def main():
    for arg in sys.argv[1:]:
        build = pathlib.Path(arg)
        if not build.is_dir():
            continue
        steps = ninja_steps(build)
        if steps:
            compiles = [s for s in steps if s[1].endswith(".o")]
            print(f"== {build}: {len(steps)} build steps, {sum(s for s, _ in steps):.0f} s "
                  f"(compiling {len(compiles)} files: {sum(s for s, _ in compiles):.0f} s); slowest:")
            for seconds, output in sorted(steps, reverse=True)[:5]:
                print(f"   {seconds:6.1f} s  {output}")
        tests = slowest_tests(build)
        if tests:
            skipped = [t for t in tests if t[3] == "skipped"]
            print(f"== {build}: {len(tests)} test runs, {sum(t[0] for t in tests):.0f} s, "
                  f"{len(skipped)} skipped; slowest:")
            for seconds, name, junit, _ in tests[:8]:
                print(f"   {seconds:6.1f} s  {name} ({junit})")


if __name__ == "__main__":
    main()
