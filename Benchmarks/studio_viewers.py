#!/usr/bin/env python3
"""Viewfinder throughput and latency of `lux studio`: N WebSocket viewers on loopback for T seconds.

Prints, per run, the frames each viewer received per second (min / median / max over viewers), the median gap
between a viewer's frames, the frame latency, and the server's resident memory at the end (VmRSS and the peak,
VmHWM, of --pid).

The frame latency is what a user sees after moving a control: the first viewer (the prober) switches the custom
exposure duration between 1/120 s and 1/30 s (2 EV, ISO fixed) every 1.5 s and times each change from sending the
command to the first frame whose mean brightness has moved past half-way to the new level (frames decoded with
Pillow, Debian's python3-pil); the median and the largest of those times are printed. A minimal RFC 6455 client
(no package needed beyond Pillow).

Usage: Benchmarks/studio_viewers.py HOST:PORT VIEWERS SECONDS [--pid PID]
"""

import base64
import io
import json
import os
import socket
import statistics
import struct
import sys
import threading
import time

from PIL import Image, ImageStat


def connect(address):
    host, port = address.rsplit(":", 1)
    s = socket.create_connection((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws/camera HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += s.recv(1)
    if b" 101 " not in reply.split(b"\r\n")[0]:
        raise SystemExit(f"no WebSocket upgrade: {reply[:80]!r}")
    return s


def read_exact(s, n):
    data = bytearray()
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


def send_text(s, text):
    """A masked client text frame (RFC 6455 5.3)."""
    data = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(data) < 126:
        header += bytes([0x80 | len(data)])
    else:
        header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
    s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def mean(jpeg):
    return sum(ImageStat.Stat(Image.open(io.BytesIO(jpeg)).convert("RGB")).mean) / 3


def viewer(address, seconds, times, latencies=None):
    """Reads frames until `seconds` pass, noting when each arrives; with `latencies`, also probes (see above)."""
    s = connect(address)
    end = time.monotonic() + seconds
    opcode_of_message = None
    message = bytearray()
    durations = [1 / 120, 1 / 30]
    level = {}  # the plateau mean of each duration, learnt from the frames before the next switch
    sent = None  # (time sent, index of the new duration, mean before the switch)
    current = 0
    last_mean = None
    next_switch = time.monotonic() + 2.0
    if latencies is not None:
        send_text(s, json.dumps({"type": "exposure", "mode": "custom", "iso": 100, "duration": durations[0]}))
    while time.monotonic() < end:
        b0, b1 = read_exact(s, 2)
        fin, opcode, length = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
        if length == 126:
            length = struct.unpack(">H", read_exact(s, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", read_exact(s, 8))[0]
        payload = read_exact(s, length)
        if opcode == 9:  # ping: the server closes sockets that do not answer
            s.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
            continue
        if opcode != 0:
            opcode_of_message = opcode
            message = bytearray()
        message += payload
        if not (fin and opcode_of_message == 2):
            continue
        now = time.monotonic()
        times.append(now)
        if latencies is None:
            continue
        last_mean = mean(bytes(message))
        if sent:
            start, target, before = sent
            if target in level and abs(last_mean - before) > abs(level[target] - before) / 2:
                latencies.append(now - start)
                sent = None
            elif target not in level and abs(last_mean - before) > 10:
                sent = None  # the first switch to each level only learns it
        elif now >= next_switch and last_mean is not None:
            level[current] = last_mean
            current = 1 - current
            send_text(s, json.dumps({"type": "exposure", "mode": "custom", "iso": 100, "duration": durations[current]}))
            sent = (time.monotonic(), current, last_mean)
            next_switch = now + 1.5
    s.close()


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    address, count, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    pid = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--pid" else None
    times = [[] for _ in range(count)]
    latencies = []
    threads = [
        threading.Thread(target=viewer, args=(address, seconds, t, latencies if n == 0 else None))
        for n, t in enumerate(times)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # The first second is start-up (the session starting, auto exposure converging): not counted.
    rates = []
    gaps = []
    for t in times:
        kept = [x for x in t if x - t[0] >= 1.0] if t else []
        rates.append(len(kept) / (seconds - 1.0))
        gaps += [b - a for a, b in zip(kept, kept[1:])]
    line = (
        f"{count} viewer(s), {seconds:.0f} s: fps per viewer min {min(rates):.1f} median {statistics.median(rates):.1f}"
        f" max {max(rates):.1f}; median frame gap {1000 * statistics.median(gaps):.1f} ms" if gaps else "no frames"
    )
    if latencies:
        line += (
            f"; frame latency (control to frame) median {1000 * statistics.median(latencies):.0f} ms"
            f" max {1000 * max(latencies):.0f} ms over {len(latencies)} changes"
        )
    if pid:
        with open(f"/proc/{pid}/status") as f:
            status = dict(l.split(":", 1) for l in f)
        rss, peak = (int(status[k].split()[0]) // 1024 for k in ("VmRSS", "VmHWM"))
        line += f"; server RSS {rss} MB, peak {peak} MB"
    print(line)


if __name__ == "__main__":
    main()
