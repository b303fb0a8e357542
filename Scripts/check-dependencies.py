#!/usr/bin/env python3
"""Checks that Package.swift lists exactly what each target imports.

For every target of the package (libraries, executables, tests), the modules its sources use are compared with
the dependencies its manifest entry declares, in both directions:

- Swift targets: every `import` declaration (any access level, attributes such as `@_exported`, `@testable` or
  `@preconcurrency`, kind imports such as `import struct M.T`) outside comments and string literals. Modules
  that come with the toolchain (Foundation, Glibc, Dispatch, Synchronization, Testing, ...) need no declaration.
- C targets: `#include` lines. A C target uses another target of the package when it includes a header of that
  target's public `include/` folder, and a system library target when it includes one of the non-standard
  headers that the system library's shim header includes (`<jpeglib.h>` for CJPEG).

A product of another package counts as used when one of the modules it vends is imported; the product's modules
are read from that package's own manifest (`swift package dump-package` in its checkout). Any drift is listed and
the script exits with status 1.

Usage: Scripts/check-dependencies.py [PACKAGE_DIR]   (default: the repository this script is in)
"""

import json
import os
import re
import subprocess
import sys

# Modules every Swift toolchain (and the platform) provides without a package dependency.
TOOLCHAIN_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "_Differentiation", "Synchronization", "Observation",
    "RegexBuilder", "Distributed", "Dispatch", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Android",
    "Darwin", "WinSDK", "ucrt", "CRT", "SwiftGlibc", "Testing", "XCTest", "os",
}

# C standard library headers: a system library's shim may include them for its own header's sake, so including
# one of them says nothing about the library.
C_STANDARD_HEADERS = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h", "limits.h",
    "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h", "stdbool.h",
    "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h", "threads.h",
    "time.h", "uchar.h", "wchar.h", "wctype.h",
}

IMPORT = re.compile(
    r"(?<![\w.`$])import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)
INCLUDE = re.compile(r'^\s*#\s*(?:include|import)\s*([<"])([^>"]+)[>"]', re.MULTILINE)
MODULE_NAME = re.compile(r"\bmodule\s+([A-Za-z_][A-Za-z0-9_]*)")
MODULE_HEADER = re.compile(r'\bheader\s+"([^"]+)"')


def run(arguments, cwd):
    result = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-dependencies: {' '.join(arguments)} failed in {cwd}:\n{result.stderr}")
    return result.stdout


def dump_package(directory):
    return json.loads(run(["swift", "package", "dump-package"], directory))


def c99name(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def strip_swift(text):
    """Swift source with comments and string literals (interpolations included) blanked out."""
    out = []
    i = 0
    n = len(text)

    def skip_string(i):
        """Index after the string literal starting at `i` (at its `#`s or opening quote)."""
        hashes = 0
        while text[i] == "#":
            hashes += 1
            i += 1
        multiline = text.startswith('"""', i)
        i += 3 if multiline else 1
        closing = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if text.startswith(escape, i):
                i += len(escape)
                if i < n and text[i] == "(":
                    i = skip_code(i + 1, ")")
                else:
                    i += 1
            elif text.startswith(closing, i):
                return i + len(closing)
            elif not multiline and text[i] == "\n":
                return i  # unterminated: leave the rest to the compiler
            else:
                i += 1
        return i

    def skip_code(i, terminator):
        """Index after the code (an interpolation) starting at `i` and ending at the balancing `terminator`."""
        depth = 0
        while i < n:
            c = text[i]
            if c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
                i = skip_string(i)
                continue
            if text.startswith("//", i):
                i = text.find("\n", i)
                i = n if i < 0 else i
                continue
            if text.startswith("/*", i):
                i = skip_block_comment(i)
                continue
            if c == "(":
                depth += 1
            elif c == terminator:
                if depth == 0:
                    return i + 1
                depth -= 1
            i += 1
        return i

    def skip_block_comment(i):
        depth = 0
        while i < n:
            if text.startswith("/*", i):
                depth += 1
                i += 2
            elif text.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        return i

    while i < n:
        c = text[i]
        if c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            j = skip_string(i)
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = skip_block_comment(i)
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def source_files(root, extensions, exclude):
    excluded = [os.path.normpath(os.path.join(root, e)) for e in exclude]
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(s for s in subfolders if os.path.join(folder, s) not in excluded)
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(extensions) and path not in excluded:
                yield path


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def target_root(package_dir, target):
    if target.get("path"):
        return os.path.join(package_dir, target["path"])
    folder = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(package_dir, folder, target["name"])


def external_products(package_dir):
    """(package identity, product name) -> the module names the product vends."""
    tree = json.loads(run(["swift", "package", "show-dependencies", "--format", "json"], package_dir))
    products = {}
    seen = set()
    stack = list(tree.get("dependencies", []))
    while stack:
        dependency = stack.pop()
        stack.extend(dependency.get("dependencies", []))
        if dependency["identity"] in seen:
            continue
        seen.add(dependency["identity"])
        manifest = dump_package(dependency["path"])
        for product in manifest["products"]:
            modules = {c99name(t) for t in product["targets"]}
            for key in {dependency["identity"], dependency["name"], manifest["name"]}:
                products[(key.lower(), product["name"])] = modules
    return products


def main():
    package_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    manifest = dump_package(package_dir)
    targets = {t["name"]: t for t in manifest["targets"]}
    products = external_products(package_dir)

    # What each local target is, seen from its users: its module name and, for C, its headers.
    module_of = {}
    headers_of = {}
    for name, target in targets.items():
        root = target_root(package_dir, target)
        module_of[name] = c99name(name)
        if target["type"] == "system":
            modulemap = read(os.path.join(root, "module.modulemap"))
            module_of[name] = MODULE_NAME.search(modulemap).group(1)
            owned = set()
            for header in MODULE_HEADER.findall(modulemap):
                for _, included in INCLUDE.findall(read(os.path.join(root, header))):
                    if included not in C_STANDARD_HEADERS:
                        owned.add(included)
            headers_of[name] = owned
        elif os.path.isdir(os.path.join(root, "include")):
            include = os.path.join(root, "include")
            headers_of[name] = {
                os.path.relpath(p, include) for p in source_files(include, (".h",), [])
            }

    problems = []
    for name, target in sorted(targets.items()):
        if target["type"] in ("system", "plugin", "binary", "macro"):
            continue
        root = target_root(package_dir, target)
        # Declared: module names (Swift) or header sets (C), keyed by how the manifest names the dependency.
        declared = {}
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            dep_name = value[0]
            if kind == "product":
                package = (value[1] or dep_name).lower()
                if (package, dep_name) not in products:
                    problems.append(f"{name}: product {dep_name} of {value[1]} not found in the resolved packages")
                    continue
                declared[f"product {dep_name}"] = products[(package, dep_name)]
            elif dep_name in targets:
                declared[dep_name] = {module_of[dep_name]}
            else:
                problems.append(f"{name}: {kind} dependency {dep_name} is neither a target nor a known product")

        swift_files = list(source_files(root, (".swift",), target.get("exclude", [])))
        c_files = list(source_files(root, (".c", ".h", ".cpp", ".cc", ".hpp", ".m"), target.get("exclude", [])))
        if swift_files:
            used = set()
            for path in swift_files:
                used.update(IMPORT.findall(strip_swift(read(path))))
            used -= TOOLCHAIN_MODULES
            used.discard(c99name(name))
            provided = set().union(*declared.values()) if declared else set()
            for module in sorted(used - provided):
                problems.append(f"{name}: imports {module} but does not depend on it")
            for dep, modules in sorted(declared.items()):
                if not modules & used:
                    problems.append(f"{name}: depends on {dep} but imports none of {sorted(modules)}")
        elif c_files:
            included = set()
            for path in c_files:
                included.update(h for _, h in INCLUDE.findall(read(path)))
            own = headers_of.get(name, set())
            for dep in sorted(declared):
                if dep.startswith("product "):
                    continue  # C targets depending on products: not checked
                if not headers_of.get(dep, set()) & included:
                    problems.append(f"{name}: depends on {dep} but includes none of its headers")
            for other, headers in sorted(headers_of.items()):
                if other != name and other not in declared and (headers - own) & included:
                    problems.append(
                        f"{name}: includes {sorted((headers - own) & included)} of {other} but does not depend on it"
                    )

    if problems:
        print("Package.swift and the sources disagree:")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print(f"check-dependencies: the dependencies of {len(targets)} targets match their imports")


if __name__ == "__main__":
    main()
