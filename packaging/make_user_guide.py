#!/usr/bin/env python3
"""docs/user-guide.md as a standalone HTML page for installing.

  make_user_guide.py GUIDE.md OUT_DIR

Writes OUT_DIR/index.html and copies the images the guide shows (relative
links, e.g. screenshots/guide-overview.png) beside it. Uses python3-markdown
(Debian); links to other docs of the source tree become plain text.
"""

import html
import os
import re
import shutil
import sys

import markdown

STYLE = """
:root { color-scheme: light dark; --fg: #1d232b; --bg: #ffffff; --muted: #5b6570;
        --code: #f2f4f7; --rule: #d8dde3; --link: #1565c0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e3e7eb; --bg: #1b1f24; --muted: #9aa4ae; --code: #262c33;
          --rule: #3a424b; --link: #7cb7ff; } }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
       background: var(--bg); max-width: 60rem; margin: 2rem auto; padding: 0 1.5rem; }
a { color: var(--link); }
h1, h2, h3 { line-height: 1.25; }
h2 { border-bottom: 1px solid var(--rule); padding-bottom: .25rem; margin-top: 2.5rem; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em;
            background: var(--code); border-radius: 4px; }
code { padding: .1em .3em; }
pre { padding: .8rem 1rem; overflow-x: auto; }
pre code { padding: 0; background: none; }
img { max-width: 100%; height: auto; border: 1px solid var(--rule); border-radius: 4px; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid var(--rule); padding: .3rem .6rem; text-align: left; vertical-align: top; }
.muted { color: var(--muted); }
"""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_user_guide.py GUIDE.md OUT_DIR")
    source, out = sys.argv[1], sys.argv[2]
    base = os.path.dirname(os.path.abspath(source))
    with open(source, encoding="utf-8") as f:
        text = f.read()
    title = re.search(r"^# (.+)$", text, re.M)
    title = title.group(1).strip() if title else "Gapscope User Guide"
    body = markdown.markdown(text, extensions=["tables", "fenced_code", "toc", "sane_lists"])

    os.makedirs(out, exist_ok=True)
    for src in sorted(set(re.findall(r'<img[^>]* src="([^":]+)"', body))):
        target = os.path.normpath(os.path.join(out, src))
        if not target.startswith(os.path.abspath(out)):
            sys.exit(f"make_user_guide: {source}: image {src} is outside the guide")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(base, src), target)

    # Links into the source tree (../README.md, cli.md) do not exist where
    # the guide is installed: keep their text.
    body = re.sub(r'<a href="(?![a-z]+:|#)[^"]*">(.*?)</a>', r"\1", body)
    page = (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n</body>\n</html>\n"
    )
    tmp = os.path.join(out, "index.html.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, os.path.join(out, "index.html"))


if __name__ == "__main__":
    main()
