#!/usr/bin/env python3
"""Whole-process DNG develop, two lux binaries and dcraw_emu -w alternated A B C A B C, medians.

Usage: raw-alternated.py ROUNDS BASE_LUX NEW_LUX DNG
One warm-up round is not counted. Prints the medians and the ratios to dcraw_emu.
"""
import statistics
import subprocess
import sys
import tempfile
import time

rounds, base, new, dng = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
out = tempfile.mkdtemp()
commands = {
    "base": [base, "develop", dng, "-o", f"{out}/base.jpg", "--overwrite"],
    "new": [new, "develop", dng, "-o", f"{out}/new.jpg", "--overwrite"],
    "dcraw_emu": ["dcraw_emu", "-w", "-Z", f"{out}/emu.ppm", dng],
}
times = {name: [] for name in commands}
for round in range(rounds + 1):
    for name, command in commands.items():
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if round:
            times[name].append(time.perf_counter() - start)
median = {name: statistics.median(values) for name, values in times.items()}
print(", ".join(f"{name} {value:.3f} s" for name, value in median.items()))
print(f"base/emu {median['base'] / median['dcraw_emu']:.3f}  new/emu {median['new'] / median['dcraw_emu']:.3f}  "
      f"new/base {median['new'] / median['base']:.3f}  (outputs in {out})")
