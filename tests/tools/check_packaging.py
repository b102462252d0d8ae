#!/usr/bin/env python3
"""Checks what the package installs besides the programs, on a build tree.

  check_packaging.py --source DIR --build DIR [--require-tools]

- README's two set-up commands: the second is the very command .ci/run
  runs, the first builds and starts the viewer on the bundled sample.
- The man pages render with `man -l` without a warning, and name every
  command and option the programs' --help lists (parsed here with a plain
  regular expression, not the generator's parser).
- The bash completions complete commands, options, option values and trace
  files as --help says; the zsh one parses and names every command.
- The desktop entry and the AppStream metainfo validate.
- `gapscope --quit-after-load` opens the sample (status 0) and refuses a
  missing file (status 2, the file named).

Exit status 77 (skipped) when a tool it needs is missing, unless
--require-tools (CI) makes that a failure.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)
    return ok


def run(argv, **kw):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8")
    env.update(kw.pop("env", {}))
    return subprocess.run(argv, capture_output=True, text=True, env=env, **kw)


def readme_setup_commands(readme):
    section = re.search(r"^## Set-up.*?$(.*?)^## ", readme, re.S | re.M)
    blocks = re.findall(r"```sh\n(.*?)```", section.group(1), re.S) if section else []
    return [b.strip() for b in blocks]


def check_readme(source):
    readme = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    ci = open(os.path.join(source, ".ci", "run"), encoding="utf-8").read()
    commands = readme_setup_commands(readme)
    if not check(len(commands) == 2, f"README's Set-up shows two commands, not {commands}"):
        return
    sample, tests = commands
    check("\n" not in sample and "\n" not in tests, "each set-up command is one line")
    check(tests in [l.strip() for l in ci.splitlines()], f".ci/run runs README's test command `{tests}`")
    script = os.path.join(source, tests.split()[-1])
    check(os.path.isfile(script) and "ctest --preset dev" in open(script).read(),
          f"{tests} builds and runs ctest")
    script = os.path.join(source, sample.split()[-1])
    body = open(script).read() if os.path.isfile(script) else ""
    check("resources/samples/" in body and "app/gui/gapscope" in body,
          f"{sample} starts the viewer on the bundled sample")


def help_commands(cli):
    top = run([cli, "--help"]).stdout
    block = re.search(r"^Commands:\n(.*?)\n\n", top, re.S | re.M).group(1)
    return re.findall(r"^  ([a-z][a-z-]*) ", block, re.M)


def check_man(build, cli, gui):
    commands = help_commands(cli)
    check(len(commands) >= 10, f"gapscope-cli --help lists its commands ({commands})")
    for page, program in (("gapscope-cli.1", cli), ("gapscope.1", gui)):
        path = os.path.join(build, "packaging", "man", page)
        r = run(["man", "--warnings", "-E", "UTF-8", "-l", path], env={"MANWIDTH": "80"})
        check(r.returncode == 0 and r.stdout.strip(), f"man -l {page} renders")
        check(r.stderr.strip() == "", f"man -l {page} gives no warnings: {r.stderr.strip()}")
        text = r.stdout.replace("\u2010", "-")  # man may hyphenate with U+2010
        text = re.sub(r"-\n\s+", "-", text)  # an option broken at its hyphen
        helps = [run([program, "--help"]).stdout]
        if program == cli:
            for c in commands:
                check(re.search(rf"^   {c}$", text, re.M), f"{page} has a section for `{c}`")
                helps.append(run([cli, c, "--help"]).stdout)
        for h in helps:
            for opt in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]+)", h))):
                check(opt in text, f"{page} names {opt} (from --help)")


def bash_complete(script, words, cwd=None):
    """COMPREPLY after typing `words` (the last one being completed)."""
    script = os.path.abspath(script)
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    func = "_gapscope_cli" if words[0] == "gapscope-cli" else "_gapscope"
    code = (f"source '{script}'; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
            f"{func}; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    r = run(["bash", "-c", code], cwd=cwd)
    return sorted(w for w in r.stdout.split("\n") if w)


def check_completions(build, cli):
    bash = os.path.join(build, "packaging", "bash", "gapscope-cli")
    commands = help_commands(cli)
    check(bash_complete(bash, ["gapscope-cli", ""]) == sorted(commands + ["--help", "--version"]),
          "bash completes gapscope-cli's commands")
    check(bash_complete(bash, ["gapscope-cli", "ga"]) == ["gaps"], "bash completes `ga` to gaps")
    check("--format" in bash_complete(bash, ["gapscope-cli", "gaps", "--fo"]),
          "bash completes gaps --fo to --format")
    formats = re.search(r"--format ([a-z|]+)", run([cli, "gaps", "--help"]).stdout).group(1)
    check(bash_complete(bash, ["gapscope-cli", "gaps", "--format", ""]) == sorted(formats.split("|")),
          "bash completes --format's values")
    check("--out" in bash_complete(bash, ["gapscope-cli", "render", "--o"]),
          "bash completes render's --out (named in its usage)")
    with tempfile.TemporaryDirectory() as d:
        for f in ("a.pt.trace.json", "b.xplane.pb", "c.json.zst", "notes.txt"):
            open(os.path.join(d, f), "w").close()
        os.mkdir(os.path.join(d, "logs"))
        got = bash_complete(bash, ["gapscope-cli", "info", ""], cwd=d)
        check(got == ["a.pt.trace.json", "b.xplane.pb", "c.json.zst", "logs"],
              f"bash completes traces and folders, not other files: {got}")
        gui = os.path.join(build, "packaging", "bash", "gapscope")
        got = bash_complete(gui, ["gapscope", ""], cwd=d)
        check(got == ["a.pt.trace.json", "b.xplane.pb", "c.json.zst", "logs"],
              f"bash completes the viewer's traces: {got}")
    zsh = os.path.join(build, "packaging", "zsh", "_gapscope")
    r = run(["zsh", "-n", zsh])
    check(r.returncode == 0, f"zsh parses _gapscope: {r.stderr}")
    body = open(zsh).read()
    check(body.startswith("#compdef gapscope gapscope-cli"), "_gapscope is a compdef for both")
    for c in commands:
        check(f"'{c}:" in body and f"    {c})" in body, f"zsh completes the command {c}")


def check_desktop(build):
    gen = os.path.join(build, "packaging")
    app = "io.github.gapscope.Gapscope"
    r = run(["desktop-file-validate", os.path.join(gen, app + ".desktop")])
    check(r.returncode == 0 and not r.stdout.strip(), f"desktop-file-validate: {r.stdout}{r.stderr}")
    r = run(["appstreamcli", "validate", "--no-net", "--explain", os.path.join(gen, app + ".metainfo.xml")])
    check(r.returncode == 0, f"appstreamcli validate: {r.stdout}{r.stderr}")
    desktop = open(os.path.join(gen, app + ".desktop")).read()
    mime = open(os.path.join(gen, "mime", "packages", app + ".xml")).read()
    declared = set(re.findall(r'<mime-type type="([^"]+)"', mime))
    listed = set(re.search(r"^MimeType=(.*)$", desktop, re.M).group(1).strip(";").split(";"))
    check(declared == listed, f"the desktop entry opens every MIME type the package declares ({listed} vs {declared})")
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        png = os.path.join(gen, "icons", "hicolor", f"{size}x{size}", "apps", app + ".png")
        ok = os.path.isfile(png)
        if ok:
            head = open(png, "rb").read(24)
            ok = head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == size
        check(ok, f"a {size}x{size} PNG icon")


def check_quit_after_load(source, gui):
    sample = os.path.join(source, "resources", "samples", "h200_cnn_dataloader.pt.trace.json.gz")
    with tempfile.TemporaryDirectory() as home:
        env = {"HOME": home, "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home}
        r = run([gui, "--quit-after-load", sample], env=env, timeout=120)
        check(r.returncode == 0 and "opened" in r.stdout, f"gapscope --quit-after-load opens the sample: {r.returncode} {r.stdout} {r.stderr}")
        missing = os.path.join(home, "missing.json")
        r = run([gui, "--quit-after-load", missing], env=env, timeout=120)
        check(r.returncode == 2 and missing in r.stderr, f"gapscope --quit-after-load refuses a missing file: {r.returncode} {r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--require-tools", action="store_true")
    a = ap.parse_args()
    require = a.require_tools or os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1"
    tools = ["man", "bash", "zsh", "desktop-file-validate", "appstreamcli"]
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        print("missing tools:", " ".join(missing), "(packaging/install-deps.sh installs them)")
        sys.exit(1 if require else 77)
    cli = os.path.join(a.build, "app", "cli", "gapscope-cli")
    gui = os.path.join(a.build, "app", "gui", "gapscope")
    check_readme(a.source)
    check_man(a.build, cli, gui)
    check_completions(a.build, cli)
    check_desktop(a.build)
    check_quit_after_load(a.source, gui)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all packaging checks passed")


if __name__ == "__main__":
    main()
