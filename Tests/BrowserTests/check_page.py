#!/usr/bin/env python3
"""Checks the page of `reactor-inspect serve` (Sources/ReactorInspectorServer/Page)
before it is compiled in: the script parses (`node --check`), every element the
script looks up by id exists in the HTML, the HTML's elements are balanced and
its ids unique, and the style sheet's braces balance. Prints one line per
problem; exits 1 when there is any."""
import html.parser
import pathlib
import re
import subprocess
import sys

PAGE = pathlib.Path(__file__).resolve().parents[2] / "Sources/ReactorInspectorServer/Page"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Structure(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.open, self.ids, self.problems = [], [], []

    def handle_starttag(self, tag, attributes):
        for name, value in attributes:
            if name == "id":
                self.ids.append(value)
            if name.startswith("on") or name == "style":
                self.problems.append(f"index.html: <{tag} {name}=…>: the CSP allows no inline handler or style")
        if tag == "script" and not dict(attributes).get("src"):
            self.problems.append("index.html: an inline <script>: the CSP runs only /app.js")
        if tag not in VOID:
            self.open.append((tag, self.getpos()[0]))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.open or self.open[-1][0] != tag:
            expected = self.open[-1] if self.open else ("nothing", 0)
            self.problems.append(f"index.html:{self.getpos()[0]}: </{tag}> closes <{expected[0]}> of line {expected[1]}")
            return
        self.open.pop()


def main():
    problems = []
    script = (PAGE / "app.js").read_text()
    check = subprocess.run(["node", "--check", str(PAGE / "app.js")], capture_output=True, text=True)
    if check.returncode != 0:
        problems.append("app.js: " + check.stderr.strip().replace("\n", " | "))
    structure = Structure()
    structure.feed((PAGE / "index.html").read_text())
    problems += structure.problems
    problems += [f"index.html: <{tag}> of line {line} is never closed" for tag, line in structure.open]
    ids = set(structure.ids)
    problems += [f"index.html: the id {i!r} is used twice" for i in sorted(ids) if structure.ids.count(i) > 1]
    for wanted in sorted(set(re.findall(r'\$\("([A-Za-z0-9_-]+)"\)', script))):
        if wanted not in ids:
            problems.append(f"app.js looks up #{wanted}, which index.html does not have")
    style = re.sub(r"/\*.*?\*/", "", (PAGE / "app.css").read_text(), flags=re.S)
    if style.count("{") != style.count("}"):
        problems.append(f"app.css: {style.count('{')} braces open, {style.count('}')} closed")
    for problem in problems:
        print(problem)
    if not problems:
        print("page: app.js parses, index.html is balanced and has every id app.js uses, app.css balances")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
