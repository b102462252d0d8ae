#!/usr/bin/env python3
"""Man pages and shell completions made from the programs' own --help.

The --help texts in app/cli and app/gui are the one source: this script runs
the built `gapscope-cli` (its overview and every command's --help) and
`gapscope --help`, and writes

  OUT/man/gapscope-cli.1, OUT/man/gapscope.1          (roff, man(7))
  OUT/bash/gapscope-cli, OUT/bash/gapscope            (bash-completion)
  OUT/zsh/_gapscope                                   (zsh, both programs)

so the pages and completions cannot drift from what the programs say.
  make_cli_docs.py --cli PATH --gui PATH --version V --date YYYY-MM-DD --out DIR
"""

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

DESC_COLUMN = 22  # where the CLI's help puts descriptions


@dataclass
class Item:
    term: str
    text: str


@dataclass
class Section:
    title: str  # "" for the text under the usage
    paragraphs: list = field(default_factory=list)  # plain text lines, joined
    items: list = field(default_factory=list)
    verbatim: list = field(default_factory=list)


@dataclass
class Help:
    usage: str
    sections: list


def run_help(argv):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return out.stdout


def split_term(line):
    """'  --top N             the N kernels' -> ('--top N', 'the N kernels');
    None when the line is prose, not a term and its text."""
    body = line[2:]
    m = re.search(r"\S(\s{2,})\S", body)
    if m and m.start(1) + 2 <= DESC_COLUMN + 8:
        term, text = body[: m.start(1)].strip(), body[m.end(1) :].strip()
    elif len(line) > DESC_COLUMN and line[DESC_COLUMN - 1] == " " and line[DESC_COLUMN] != " ":
        # A term that fills the column leaves one space before the text.
        term, text = line[2 : DESC_COLUMN - 1].strip(), line[DESC_COLUMN:].strip()
    elif len(body.split()) <= 2:
        term, text = body.strip(), ""
    else:
        return None
    if term.endswith(":") or "(" in term or len(term.split()) > 4:
        return None
    return term, text


def parse_help(text, verbatim_sections=("Conditions", "What-if")):
    lines = text.rstrip("\n").split("\n")
    usage = [lines[0][len("Usage: ") :].strip()]
    i = 1
    while i < len(lines) and lines[i].startswith(" ") and lines[i].strip().startswith("["):
        usage.append(lines[i].strip())
        i += 1
    sections = [Section("")]
    in_item = False  # the last line was an item or its continuation
    for line in lines[i:]:
        s = sections[-1]
        if not line.strip():
            in_item = False
            if s.paragraphs and s.paragraphs[-1] != "":
                s.paragraphs.append("")
            continue
        if not line.startswith(" ") and line.rstrip().endswith(":"):
            title = line.rstrip()[:-1]
            sections.append(Section(title))
            continue
        if not line.startswith(" ") and ":" in line and not sections[-1].items:
            # "Exit status: 0 success, ..." starts a section with its text.
            title, rest = line.split(":", 1)
            if title and title[0].isupper() and len(title.split()) <= 3:
                sections.append(Section(title, paragraphs=[rest.strip()]))
                continue
        if any(s.title.startswith(v) for v in verbatim_sections):
            s.verbatim.append(line[2:] if line.startswith("  ") else line)
            continue
        indent = len(line) - len(line.lstrip())
        named = line.lstrip().startswith("-") or s.title in ("Commands", "Arguments")
        split = split_term(line) if indent == 2 and named else None
        if split:
            s.items.append(Item(*split))
            in_item = True
        elif indent > 2 and in_item:
            s.items[-1].text = (s.items[-1].text + " " + line.strip()).strip()
        elif indent > 2:
            # A small table inside a description: kept as laid out, as a
            # paragraph of its own ("\n" marks it for verbatim output).
            if s.paragraphs and s.paragraphs[-1].startswith("\n"):
                s.paragraphs[-1] += "\n" + line[4:]
            else:
                s.paragraphs.append("\n" + line[4:])
        else:
            if s.paragraphs and s.paragraphs[-1] != "" and not s.paragraphs[-1].startswith("\n"):
                s.paragraphs[-1] += " " + line.strip()
            else:
                if s.paragraphs == [""]:
                    s.paragraphs = []
                s.paragraphs.append(line.strip())
    for s in sections:
        while s.paragraphs and s.paragraphs[-1] == "":
            s.paragraphs.pop()
    return Help(" ".join(usage), sections)


# ---------------------------------------------------------------- options


@dataclass
class Option:
    names: list
    arg: str  # "" for a flag
    text: str

    @property
    def choices(self):
        return self.arg.split("|") if "|" in self.arg else []


def options_of(help_):
    result = []
    for s in help_.sections:
        for it in s.items:
            if not it.term.startswith("-"):
                continue
            names, arg = [], ""
            for part in it.term.split(","):
                words = part.split()
                if not words:
                    continue
                names.append(words[0])
                if len(words) > 1:
                    arg = words[1].strip("<>")
            result.append(Option(names, arg, it.text))
    return result


def usage_options(help_):
    """Options named only in the usage line ('[--top N]', '--out FILE')."""
    found = []
    for m in re.finditer(r"(--[a-z][a-z0-9-]*)(?: ((?!-)[^\s\]\[]+))?", help_.usage):
        arg = m.group(2) or ""
        if arg in ("TRACE", "BASE", "NEW") or (arg and arg.startswith("[")):
            arg = ""
        found.append(Option([m.group(1)], arg, ""))
    return found


def all_options(help_):
    """For completion: the listed options, then those only in the usage."""
    listed = options_of(help_)
    names = {n for o in listed for n in o.names}
    return listed + [o for o in usage_options(help_) if o.names[0] not in names]


def first_sentence(text, limit=60):
    t = text.split(";")[0].split(". ")[0].strip()
    return t if len(t) <= limit else t[: limit - 1].rsplit(" ", 1)[0] + "…"


# ---------------------------------------------------------------- roff


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # A line may not start with a control character.
    return re.sub(r"(?m)^([.'])", r"\\&\1", text)


def roff_term(term):
    """Option names bold, their arguments italic."""
    parts = []
    for piece in term.split(", "):
        words = piece.split(" ", 1)
        s = "\\fB" + roff(words[0]) + "\\fR"
        if len(words) > 1:
            s += " \\fI" + roff(words[1]) + "\\fR"
        parts.append(s)
    return ", ".join(parts)


def header(name, version, date, section_title):
    return [
        f'.TH {name.upper()} 1 "{date}" "Gapscope {version}" "{section_title}"',
        ".\\\" Generated by packaging/make_cli_docs.py from the program's --help; do not edit.",
    ]


def paragraphs(out, paras):
    for p in paras:
        if p.startswith("\n"):
            verbatim(out, p[1:].split("\n"))
        elif p:
            out += [".PP", roff(p)]


def items(out, its):
    for it in its:
        out += [".TP", roff_term(it.term), roff(it.text) if it.text else ".br"]


def verbatim(out, lines):
    out += [".PP", ".RS 4", ".nf"] + [roff(v) for v in lines] + [".fi", ".RE"]


def usage_synopsis(usage):
    prog, *rest = usage.split(" ", 1)
    return [".SY " + prog, roff(rest[0]) if rest else "", ".YS"]


def cli_manpage(top, commands, version, date):
    out = header("gapscope-cli", version, date, "User Commands")
    intro = top.sections[0].paragraphs
    out += [".SH NAME", "gapscope-cli \\- headless analysis of GPU/CPU traces of machine-learning jobs"]
    out += [".SH SYNOPSIS"] + usage_synopsis(top.usage)
    for name, h in commands:
        out += usage_synopsis(h.usage)
    out += [".SH DESCRIPTION"]
    paragraphs(out, intro)
    # Options every command takes, and those most analyses take, once.
    # Keyed by names and text: "--top N" means something else per command.
    opts = {name: {(tuple(o.names), o.text): o for o in options_of(h)} for name, h in commands}
    every = set.intersection(*(set(o) for o in opts.values()))
    counts = {}
    for o in opts.values():
        for k in o:
            counts[k] = counts.get(k, 0) + 1
    shared = {k for k, c in counts.items() if c >= 3 and k not in every}
    out += [".SH COMMANDS"]
    for name, h in commands:
        out += [".SS " + roff(name)]
        out += [".B gapscope\\-cli", roff(h.usage.split(" ", 1)[1])]
        paragraphs(out, h.sections[0].paragraphs)
        own = [o for k, o in opts[name].items() if k not in every | shared]
        for s in h.sections[1:]:
            if s.verbatim:
                out += [".PP", roff(s.title) + ":"]
                verbatim(out, s.verbatim)
            paragraphs(out, s.paragraphs)
        items(out, [Item(", ".join(o.names) + (" " + o.arg if o.arg else ""), o.text) for o in own])
        if any(k in shared for k in opts[name]):
            out += [".PP", "Also the analysis options it lists in \\fB\\-\\-help\\fR (see \\fBANALYSIS OPTIONS\\fR)."]
    def option_list(keys):
        seen = {}
        for name, _ in commands:
            for k, o in opts[name].items():
                if k in keys:
                    seen.setdefault(k, o)
        seen = list(seen.values())
        items(out, [Item(", ".join(o.names) + (" " + o.arg if o.arg else ""), o.text) for o in seen])
    out += [".SH ANALYSIS OPTIONS", "Taken by the commands that analyse a trace (see each command's \\fB\\-\\-help\\fR)."]
    option_list(shared)
    out += [".SH LOADING OPTIONS", "Taken by every command."]
    option_list(every)
    for s in top.sections[1:]:
        if s.title == "Options":
            out += [".SH OPTIONS"]
            items(out, s.items)
    for s in top.sections[1:]:
        if s.title.lower().startswith("exit status"):
            out += [".SH EXIT STATUS"]
            paragraphs(out, s.paragraphs)
    out += [
        ".SH ENVIRONMENT",
        ".TP",
        ".B XDG_CACHE_HOME",
        "The index cache lives in \\fI$XDG_CACHE_HOME/gapscope\\fR (default \\fI~/.cache/gapscope\\fR).",
        ".SH FILES",
        ".TP",
        ".I TRACE.gapscope.json",
        "The annotations of a trace, beside it (written by the viewer; read by \\fBrender\\fR, \\fBsummary\\fR and \\fBdiff\\fR).",
        ".TP",
        ".I /usr/share/gapscope/samples/",
        "A sample trace to try the commands on.",
        ".SH SEE ALSO",
        ".BR gapscope (1);",
        "the user guide in \\fI/usr/share/gapscope/user\\-guide/index.html\\fR.",
    ]
    return "\n".join(out) + "\n"


def gui_manpage(gui, version, date):
    out = header("gapscope", version, date, "User Commands")
    out += [".SH NAME", "gapscope \\- see where and why the GPU is idle in machine-learning profiles"]
    out += [".SH SYNOPSIS", ".SY gapscope", "[\\fIOPTIONS\\fR] [\\fITRACE\\fR | \\fIFOLDER\\fR]", ".YS"]
    out += [".SH DESCRIPTION"]
    paragraphs(out, gui.sections[0].paragraphs)
    out += [
        ".PP",
        "Opens a trace of the PyTorch profiler, TensorFlow or JAX (Chrome trace JSON, plain, gzip or zstd; "
        "an XSpace \\fI*.xplane.pb\\fR; a TensorBoard log folder; or an Nsight Systems SQLite export) "
        "in a timeline with every GPU's idle gaps "
        "shaded by cause, and side panels with the analyses. Help \\(-> User Guide in the viewer opens the guide.",
    ]
    for s in gui.sections[1:]:
        out += [".SH " + roff(s.title.upper())]
        paragraphs(out, s.paragraphs)
        items(out, s.items)
    out += [".SH SEE ALSO", ".BR gapscope\\-cli (1)"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- bash


TRACE_GLOB = "@(json|gz|zst|pb)"


def bash_arg_completion(opt):
    if opt.choices:
        return f'COMPREPLY=($(compgen -W "{" ".join(opt.choices)}" -- "$cur"))'
    if opt.arg == "DIR":
        return 'COMPREPLY=($(compgen -d -- "$cur"))'
    if "FILE" in opt.arg or opt.names[0] == "--out":
        return 'COMPREPLY=($(compgen -f -- "$cur"))'
    return "COMPREPLY=()"


def bash_trace_completion():
    return (
        f"COMPREPLY=($(compgen -f -X '!*.{TRACE_GLOB}' -- \"$cur\") $(compgen -d -- \"$cur\"))"
    )


def cli_bash(top, commands):
    names = [n for n, _ in commands]
    out = [
        "# bash completion for gapscope-cli; generated by packaging/make_cli_docs.py",
        "# from its --help (do not edit).",
        "_gapscope_cli() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
        "    if ((COMP_CWORD == 1)); then",
        f'        COMPREPLY=($(compgen -W "{" ".join(names)} --help --version" -- "$cur"))',
        "        return",
        "    fi",
        '    case "${COMP_WORDS[1]}:$prev" in',
    ]
    for name, h in commands:
        for o in all_options(h):
            if o.arg:
                pats = "|".join(f"{name}:{n}" for n in o.names)
                out.append(f"    {pats}) {bash_arg_completion(o)}; return ;;")
    out += ["    esac", "    local opts", '    case "${COMP_WORDS[1]}" in']
    for name, h in commands:
        flags = " ".join(n for o in all_options(h) for n in o.names)
        out.append(f'    {name}) opts="{flags} --help" ;;')
    out += [
        "    *) return ;;",
        "    esac",
        '    if [[ "$cur" == -* ]]; then',
        '        COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
        "        return",
        "    fi",
        "    " + bash_trace_completion(),
        "}",
        "shopt -s extglob",
        "complete -o filenames -F _gapscope_cli gapscope-cli",
    ]
    return "\n".join(out) + "\n"


def gui_bash(gui):
    opts = all_options(gui)
    out = [
        "# bash completion for gapscope; generated by packaging/make_cli_docs.py",
        "# from its --help (do not edit).",
        "_gapscope() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
        '    case "$prev" in',
    ]
    for o in opts:
        if o.arg:
            out.append(f"    {'|'.join(o.names)}) {bash_arg_completion(o)}; return ;;")
    out += [
        "    esac",
        '    if [[ "$cur" == -* ]]; then',
        f'        COMPREPLY=($(compgen -W "{" ".join(n for o in opts for n in o.names)}" -- "$cur"))',
        "        return",
        "    fi",
        "    " + bash_trace_completion(),
        "}",
        "shopt -s extglob",
        "complete -o filenames -F _gapscope gapscope",
    ]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- zsh


def zsh_quote(text):
    return text.replace("'", "'\\''")


def zsh_spec(o):
    desc = zsh_quote(first_sentence(o.text).replace("[", "(").replace("]", ")").replace(":", " "))
    if o.arg:
        if o.choices:
            action = f"({' '.join(o.choices)})"
        elif o.arg == "DIR":
            action = "_directories"
        elif "FILE" in o.arg or o.names[0] == "--out":
            action = "_files"
        else:
            action = " "
        arg = f":{o.arg.lower()}:{action}"
    else:
        arg = ""
    if len(o.names) > 1:
        group = " ".join(o.names)
        alts = ",".join(o.names)
        return f"'({group})'{{{alts}}}'[{desc}]{arg}'"
    return f"'{o.names[0]}[{desc}]{arg}'"


ZSH_TRACE = "'*:trace or folder:_files -g \"*.(json|gz|zst|pb)(-.)\"'"


def zsh(top, commands, gui):
    described = {}
    for s in top.sections:
        if s.title == "Commands":
            for it in s.items:
                described[it.term.split()[0]] = first_sentence(it.text)
    out = [
        "#compdef gapscope gapscope-cli",
        "# zsh completion for gapscope and gapscope-cli; generated by",
        "# packaging/make_cli_docs.py from their --help (do not edit).",
        "",
        "_gapscope_cli_command() {",
        "    local -a commands",
        "    commands=(",
    ]
    for name, _ in commands:
        out.append(f"        '{name}:{zsh_quote(described.get(name, name)).replace(':', ' ')}'")
    out += [
        "    )",
        "    if (( CURRENT == 2 )); then",
        "        _describe -t commands 'gapscope-cli command' commands",
        "        return",
        "    fi",
        "    local cmd=$words[2]",
        "    shift words",
        "    (( CURRENT-- ))",
        "    case $cmd in",
    ]
    for name, h in commands:
        specs = " \\\n            ".join(zsh_spec(o) for o in all_options(h))
        out.append(f"    {name})\n        _arguments -s \\\n            {specs} \\\n            {ZSH_TRACE} ;;")
    out += ["    esac", "}", ""]
    gui_specs = " \\\n        ".join(zsh_spec(o) for o in all_options(gui))
    out += [
        "case $service in",
        "gapscope-cli) _gapscope_cli_command ;;",
        f"gapscope) _arguments -s \\\n        {gui_specs} \\\n        {ZSH_TRACE} ;;",
        "esac",
    ]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- main


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--gui")
    ap.add_argument("--version", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    top = parse_help(run_help([a.cli, "--help"]))
    names = []
    for s in top.sections:
        if s.title == "Commands":
            names = [it.term.split()[0] for it in s.items]
    if not names:
        sys.exit("make_cli_docs: no 'Commands:' in gapscope-cli --help")
    commands = [(n, parse_help(run_help([a.cli, n, "--help"]))) for n in names]
    write(os.path.join(a.out, "man", "gapscope-cli.1"), cli_manpage(top, commands, a.version, a.date))
    write(os.path.join(a.out, "bash", "gapscope-cli"), cli_bash(top, commands))
    gui = None
    if a.gui:
        text = run_help([a.gui, "--help"])
        text = re.sub(r"^Usage: \S+", "Usage: gapscope", text)
        gui = parse_help(text)
        write(os.path.join(a.out, "man", "gapscope.1"), gui_manpage(gui, a.version, a.date))
        write(os.path.join(a.out, "bash", "gapscope"), gui_bash(gui))
    write(os.path.join(a.out, "zsh", "_gapscope"), zsh(top, commands, gui or Help("gapscope", [])))


if __name__ == "__main__":
    main()
