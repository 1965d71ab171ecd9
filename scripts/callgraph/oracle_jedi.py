"""Jedi's answer for every call in a Python project.

Usage: python3 scripts/callgraph/oracle_jedi.py ROOT

For each call whose callee is a name or `x.name` in the `.py` files under
ROOT (found with the `ast` module), prints one JSON line
`{file, line, name, targets, external}`: `line` is the 1-based line of the
callee's name, `targets` the definitions `jedi.Script.goto` (imports
followed) gives under ROOT (`{file, line, name}`), `external` whether one
lies outside (builtins, the standard library, a package). A call Jedi cannot
place has neither. Cost: one goto per call, about a millisecond each.
"""
import ast
import json
import os
import sys

import jedi


def main(root: str) -> None:
    root = os.path.realpath(root)
    project = jedi.Project(root)
    paths = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        paths += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        script = jedi.Script(code=source, path=path, project=project)
        rel = os.path.relpath(path, root)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                line, col, name = func.lineno, func.col_offset, func.id
            elif isinstance(func, ast.Attribute):
                line, col, name = func.end_lineno, func.end_col_offset - len(func.attr), func.attr
            else:
                continue
            targets = []
            external = False
            try:
                found = script.goto(line, col, follow_imports=True)
            except Exception:  # Jedi gives up on some constructs: no answer
                found = []
            for d in found:
                where = d.module_path
                if where is None or d.in_builtin_module() or d.line is None:
                    external = True
                    continue
                where = os.path.realpath(str(where))
                if not where.startswith(root + os.sep):
                    external = True
                    continue
                targets.append({"file": os.path.relpath(where, root), "line": d.line, "name": d.name})
            print(json.dumps({"file": rel, "line": line, "name": name, "targets": targets,
                              "external": external}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: oracle_jedi.py ROOT", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
