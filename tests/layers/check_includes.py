#!/usr/bin/env python3
"""Checks every quoted #include of lib/ and cuda/ against the module graph of
cmake/PmcountLayers.cmake (written by the configure step to <build>/layers/graph.txt).

The build already refuses an upward include in a .cpp file (each module compiles against a view
of the tree that lacks the modules above it); this check covers what the build cannot see: a
header that only modules above its own include. A file's module is its folder under lib/; the
CUDA target's files (cuda/, and its stub lib/backend/cuda_stub.cpp) are the module "cuda".

It also keeps docs/architecture_modules.dot, the figure of docs/architecture.md, equal to the
graph: --figure FILE fails when FILE differs from the graph drawn, --write-figure FILE redraws it
(scripts/architecture-figure.sh renders the SVG from it).

Usage: check_includes.py GRAPH ROOT [--figure FILE | --write-figure FILE]
       (exit 1 and one line per violation: file:line: problem)
"""

import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCES = ("*.cpp", "*.hpp", "*.cu", "*.cuh")


def read_graph(path):
    """module -> (uses, headers); '*' holds the headers every module may include."""
    graph = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        name, _, rest = line.partition(":")
        uses, _, headers = rest.partition(";")
        if not name.strip() or not _:
            sys.exit(f"{path}:{number}: expected 'module: uses; headers'")
        graph[name.strip()] = (uses.split(), headers.split())
    return graph


def closure(graph, module):
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(graph[current][0])
    return seen


def module_of(root, path):
    relative = path.relative_to(root)
    if relative.parts[0] == "cuda" or relative.as_posix() == "lib/backend/cuda_stub.cpp":
        return "cuda"
    return relative.parts[1]


def figure(graph):
    """The module graph in Graphviz, an arrow from each module to each one it uses, less the
    arrows that a path through other modules implies (transitive reduction)."""
    lines = ["// The modules of lib/ and what each may include (cmake/PmcountLayers.cmake).",
             "// Written by tests/layers/check_includes.py --write-figure; do not edit.",
             "digraph modules {",
             "    rankdir=BT;",
             '    node [shape=box, fontname="Helvetica", fontsize=11];',
             '    edge [color="#555555", arrowsize=0.7];']
    for name, (uses, headers) in graph.items():
        if name == "*":
            continue
        label = name + "".join("\\n" + h for h in headers)
        lines.append(f'    "{name}" [label="{label}"];')
        implied = set().union(*(closure(graph, u) - {u} for u in uses)) if uses else set()
        lines.extend(f'    "{name}" -> "{used}";' for used in uses if used not in implied)
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    arguments = sys.argv[1:]
    option = arguments[2:4]
    if len(arguments) not in (2, 4) or option and option[0] not in ("--figure", "--write-figure"):
        sys.exit(__doc__)
    graph = read_graph(pathlib.Path(arguments[0]))
    root = pathlib.Path(arguments[1]).resolve()
    if option:
        path = pathlib.Path(option[1])
        if option[0] == "--write-figure":
            path.write_text(figure(graph))
        elif not path.exists() or path.read_text() != figure(graph):
            print(f"{path}: differs from the module graph; run scripts/architecture-figure.sh")
            return 1
    modules = {p.name for p in (root / "lib").iterdir() if p.is_dir()}
    violations = []
    files = [f for pattern in SOURCES for folder in ("lib", "cuda")
             for f in (root / folder).rglob(pattern)]
    for path in sorted(files):
        own = module_of(root, path)
        if own not in graph:
            violations.append(f"{path}: module '{own}' is not declared in the layer graph")
            continue
        allowed = closure(graph, own)
        headers = set(graph.get("*", ([], []))[1])
        for module in allowed:
            headers.update(graph[module][1])
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            first, _, rest = target.partition("/")
            if first == "pmcount":
                header = rest.split("/")[0]
                if header not in headers:
                    violations.append(f"{path}:{number}: module '{own}' includes "
                                      f"pmcount/{rest}, which belongs to a module above it")
            elif rest and first in modules and first not in allowed:
                violations.append(f"{path}:{number}: module '{own}' includes {target} from "
                                  f"module '{first}', which it may not use")
    for violation in violations:
        print(violation)
    print(f"check_includes: {len(files)} files, {len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
