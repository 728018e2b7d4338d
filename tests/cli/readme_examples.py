#!/usr/bin/env python3
"""Checks that the ```console examples of the given Markdown files still print what they show.

Each block holds commands (lines starting with "$ ") each followed by the lines it prints. A
command runs in bash from the repository root with the built count_matchings first on PATH; its
standard output and then its standard error are compared with the lines shown:
  - every line shown must be found, in order, in what the command printed (lines it prints and
    the example leaves out are allowed: the example shows what matters);
  - a shown line must match a whole printed line, where "..." stands for any text (a time, a
    digit string that varies, a part left out) and a run of blanks for any run of blanks;
  - the exit status must be 0 unless the shown output starts with "error:".
Usage: readme_examples.py BIN_DIR REPO_ROOT FILE.md...
"""
import os
import re
import subprocess
import sys


def blocks(text):
    """The ```console blocks of a Markdown text as (first line number, lines)."""
    out, current, start = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if current is None and line.strip() == "```console":
            current, start = [], number + 1
        elif current is not None and line.strip() == "```":
            out.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return out


def examples(lines, first):
    """(line number, command, shown lines) for each "$ " line of a block."""
    out = []
    for offset, line in enumerate(lines):
        if line.startswith("$ "):
            out.append([first + offset, line[2:], []])
        elif out:
            out[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"line {first + offset}: output before any command")
    return out


def line_pattern(shown):
    """A shown line as a regular expression for one whole printed line."""
    pieces = [re.sub(r"(?:\\\s)+", r"[ \\t]+", re.escape(p)) for p in shown.strip().split("...")]
    return re.compile("[ \t]*" + ".*".join(pieces) + "[ \t]*")


def shows(shown, printed):
    """Whether the shown lines are found, in order, among the printed ones."""
    lines = iter(printed.splitlines())
    return all(any(p.fullmatch(line) for line in lines)
               for p in (line_pattern(s) for s in shown if s.strip()))


def main():
    bin_dir, root, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    checked, failures = 0, []
    for name in files:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            text = f.read()
        for first, lines in blocks(text):
            for number, command, shown in examples(lines, first):
                run = subprocess.run(["bash", "-c", command], cwd=root, env=env,
                                     capture_output=True, text=True, timeout=300)
                printed = run.stdout + "\n" + run.stderr
                expect_error = any(l.startswith("error:") for l in shown[:1])
                where = f"{name}:{number}: $ {command}"
                if not shows(shown, printed):
                    failures.append(f"{where}\n  shows:\n    " + "\n    ".join(shown) +
                                    "\n  prints:\n    " + "\n    ".join(printed.splitlines()))
                elif (run.returncode != 0) != expect_error:
                    failures.append(f"{where}\n  exit status {run.returncode}")
                checked += 1
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{checked} example(s), {len(failures)} differ from what they print")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
