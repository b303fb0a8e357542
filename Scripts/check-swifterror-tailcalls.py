#!/usr/bin/env python3
"""Finds code in an x86-64 binary that Swift 6.3's optimiser may have miscompiled (swiftlang/swift#90477).

A Swift function or closure that can throw (any closure given to a `throws(E)` generic such as `withUnsafePlane`
or `withExtendedLifetime`) returns its error in r12. When its success path ends in a tail jump to memmove,
memcpy or memset, LLVM before the fix skips restoring r12, so if the function used r12 as scratch the caller
sees a phantom error and traps. Release builds only: debug builds never tail-call.

    Scripts/check-swifterror-tailcalls.py [.build/release/lux]

Lists every function (demangled) with a tail jump to a memory library call that writes r12 without saving it
(a function that pushes r12 is an ordinary callee-saved use, and moving back the value it saved on entry is a
restore: both are safe). Exits 1 when it finds one. Functions
are split where a `push %rbp` follows a return, jump or padding, since objdump attributes unnamed local
functions to the symbol before them. The fix is to end such a path with an opaque call (`lux_copy_bytes`).
"""
import re
import subprocess
import sys

HEADER = re.compile(r"^[0-9a-f]+ <(.+)>:$")
TAIL = re.compile(r"\bjmp\s+[0-9a-f]+ <(memmove|memcpy|memset)@plt>")
WRITES_R12 = re.compile(r",%r12[bdw]?\s*$")
SAVES_R12 = re.compile(r"\smov\s+%r12,(\S+)\s*$")
RESTORES_R12 = re.compile(r"\smov\s+(\S+),%r12\s*$")
COMPARES = re.compile(r"\s(cmp|test)\w*\s")
ENDS_BLOCK = re.compile(r"\s(ret|jmp|nop\w*|ud2|int3)\b")


def pieces(lines):
    """The function's instructions cut into the separate functions objdump merged under one symbol."""
    piece, previous = [], ""
    for line in lines:
        if "push   %rbp" in line and ENDS_BLOCK.search(previous) and piece:
            yield piece
            piece = []
        piece.append(line)
        previous = line
    yield piece


def suspicious(lines):
    for piece in pieces(lines):
        if not any(TAIL.search(l) for l in piece) or any("push   %r12" in l for l in piece):
            continue
        saved = {m.group(1) for l in piece if (m := SAVES_R12.search(l))}
        for line in piece:
            if not WRITES_R12.search(line.rstrip()) or COMPARES.search(line):
                continue
            restore = RESTORES_R12.search(line)
            if restore and restore.group(1) in saved:
                continue
            return True
    return False


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/lux"
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True, check=True
    ).stdout
    found, name, body = [], None, []
    for line in listing.splitlines():
        match = HEADER.match(line.strip())
        if match:
            if name and suspicious(body):
                found.append(name)
            name, body = match.group(1), []
        elif name:
            body.append(line)
    if name and suspicious(body):
        found.append(name)
    if not found:
        print(f"{binary}: no tail call to a memory function from a function that clobbers r12")
        return 0
    names = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(found), capture_output=True, text=True)
    print(f"{binary}: {len(found)} function(s) may return a phantom error (swiftlang/swift#90477):")
    for line in names.stdout.splitlines():
        print("  " + line[:240])
    return 1


if __name__ == "__main__":
    sys.exit(main())
