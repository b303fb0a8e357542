#!/usr/bin/env python3
"""Slider-to-preview latency of one or more `lux studio` servers, alternated request by request.

For each slider (exposure, contrast, white-balance temperature, luminance noise reduction) every server gets a
request at one position, then the next server, and so on, the slider moving between two positions from one round
to the next (so every timed request changes that slider and nothing else). A request is a whole HTTP round trip as
the page makes it: POST of the adjustments, the JPEG preview fitting SIZE back. Three untimed rounds first (the
DNG decoded, the draft made). Prints the median and the quartiles in milliseconds per slider and server, and the
ratio of each server's median to the first's.

Usage: Benchmarks/studio_sliders.py DNG RUNS SIZE URL [URL...]   (URL: http://127.0.0.1:PORT, DNG: 0/IMG_....dng)
"""

import statistics
import sys
import time
import urllib.request

SLIDERS = [
    ("exposure", ('{"exposure":0.5}', '{"exposure":-0.5}')),
    ("contrast", ('{"contrastAmount":0.3}', '{"contrastAmount":-0.3}')),
    ("temperature", ('{"neutralTemperature":5000,"neutralTint":0}', '{"neutralTemperature":5600,"neutralTint":0}')),
    ("noise reduction", ('{"luminanceNoiseReductionAmount":0.2}', '{"luminanceNoiseReductionAmount":0.6}')),
]


def request(url, body):
    started = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, data=body.encode(), method="POST")) as answer:
        if answer.status != 200 or len(answer.read()) < 1000:
            raise SystemExit(f"{url}: no preview")
    return (time.perf_counter() - started) * 1000


def main():
    dng, runs, size, servers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    urls = [f"{s}/api/develop/{dng}?size={size}" for s in servers]
    print(f"{'slider':<16}" + "".join(f"{'server ' + str(i + 1) + ' median (q1-q3)':>30}" for i in range(len(urls)))
          + "   ratios to server 1")
    for name, positions in SLIDERS:
        times = [[] for _ in urls]
        for k in range(3 + runs):
            for i, url in enumerate(urls):
                t = request(url, positions[k % 2])
                if k >= 3:
                    times[i].append(t)
        cells = []
        medians = []
        for t in times:
            q = statistics.quantiles(t, n=4)
            medians.append(statistics.median(t))
            cells.append(f"{medians[-1]:8.1f} ({q[0]:.1f}-{q[2]:.1f})")
        print(f"{name:<16}" + "".join(f"{c:>30}" for c in cells) + "   "
              + " ".join(f"{m / medians[0]:.2f}" for m in medians[1:]), flush=True)


main()
