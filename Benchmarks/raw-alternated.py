#!/usr/bin/env python3
"""Whole-process DNG develop, two lux binaries and dcraw_emu -w alternated A B C A B C, medians.

Usage: raw-alternated.py ROUNDS BASE_LUX NEW_LUX DNG
One warm-up round is not counted. Prints the medians of wall time and of CPU time (user + sys of each process, from
getrusage), the ratios to dcraw_emu and new/base per round.
"""
import resource
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
cpu = {name: [] for name in commands}


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


for round in range(rounds + 1):
    for name, command in commands.items():
        start, start_cpu = time.perf_counter(), children_cpu()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if round:
            times[name].append(time.perf_counter() - start)
            cpu[name].append(children_cpu() - start_cpu)
median = {name: statistics.median(values) for name, values in times.items()}
print(", ".join(f"{name} {value:.3f} s" for name, value in median.items()))
print("CPU " + ", ".join(f"{name} {statistics.median(values):.3f} s" for name, values in cpu.items()))
per_round = statistics.median(n / b for n, b in zip(cpu["new"], cpu["base"]))
print(f"new/base CPU per round {per_round:.3f}")
print(f"base/emu {median['base'] / median['dcraw_emu']:.3f}  new/emu {median['new'] / median['dcraw_emu']:.3f}  "
      f"new/base {median['new'] / median['base']:.3f}  (outputs in {out})")
