#!/usr/bin/env python3
"""Viewfinder throughput of `lux studio`: N WebSocket viewers on loopback for T seconds.

Prints, per run, the frames each viewer received per second (min / median / max over viewers), the median gap
between a viewer's frames, and the server's resident memory at the end (VmRSS of --pid). A minimal RFC 6455 client
(no package needed); it only reads, never sends commands.

Usage: Benchmarks/studio_viewers.py HOST:PORT VIEWERS SECONDS [--pid PID]
"""

import base64
import os
import socket
import statistics
import struct
import sys
import threading
import time


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


def viewer(address, seconds, times):
    s = connect(address)
    end = time.monotonic() + seconds
    opcode_of_message = None
    while time.monotonic() < end:
        b0, b1 = read_exact(s, 2)
        fin, opcode, length = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
        if length == 126:
            length = struct.unpack(">H", read_exact(s, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", read_exact(s, 8))[0]
        read_exact(s, length)
        if opcode != 0:
            opcode_of_message = opcode
        if fin and opcode_of_message == 2:
            times.append(time.monotonic())
    s.close()


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    address, count, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    pid = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--pid" else None
    times = [[] for _ in range(count)]
    threads = [threading.Thread(target=viewer, args=(address, seconds, t)) for t in times]
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
    if pid:
        with open(f"/proc/{pid}/status") as f:
            rss = next(l for l in f if l.startswith("VmRSS")).split()[1]
        line += f"; server RSS {int(rss) // 1024} MB"
    print(line)


if __name__ == "__main__":
    main()
