#!/usr/bin/env python3
"""Hostile clients against a running `reactor-inspect serve` (docs/SERVE.md, "It survives its clients").

Usage: serve_hostile_clients.py PORT PID [IDLE_CONNECTIONS] [HEADER_MEGABYTES]

Opens IDLE_CONNECTIONS (10,000) idle connections to 127.0.0.1:PORT (raising this process's
RLIMIT_NOFILE as far as allowed), then sends a HEADER_MEGABYTES (10) MB header line without CRLF
on another connection; meanwhile times GET /api/summary. Then closes everything and measures the
server's CPU (process PID, from /proc) over 5 s. Prints one line per figure.
"""
import resource
import socket
import sys
import threading
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])
idle_count = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
header_mb = int(sys.argv[4]) if len(sys.argv) > 4 else 10


def cpu_seconds():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, clock ticks


def summary_seconds():
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = data.split(b" ", 2)[1].decode() if data else "none"
    return time.monotonic() - start, status


soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, idle_count + 1000), hard))
print(f"client RLIMIT_NOFILE {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}")

cpu_start = cpu_seconds()
idle = []
opened_at = time.monotonic()
for _ in range(idle_count):
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    idle.append(s)
print(f"{len(idle)} idle connections opened in {time.monotonic() - opened_at:.2f} s")
time.sleep(1)
times = [summary_seconds() for _ in range(5)]
print("summary with the idle connections open: " + ", ".join(f"{t:.3f} s ({s})" for t, s in times))

header_result = {}


def long_header():
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"GET / HTTP/1.1\r\nX-Long: ")
            chunk = b"a" * 65536
            sent = 0
            try:
                while sent < header_mb << 20:
                    s.sendall(chunk)
                    sent += len(chunk)
            except OSError as error:
                header_result["send"] = f"stopped after {sent} bytes: {error.strerror}"
            answer = b""
            try:
                while data := s.recv(65536):
                    answer += data
            except OSError as error:
                header_result["recv"] = error.strerror
            header_result["status"] = answer.split(b" ", 2)[1].decode() if answer else "none"
    finally:
        header_result["seconds"] = time.monotonic() - start


thread = threading.Thread(target=long_header)
thread.start()
time.sleep(0.2)
times = [summary_seconds() for _ in range(5)]
thread.join()
print("summary while a %d MB header is sent: " % header_mb + ", ".join(f"{t:.3f} s ({s})" for t, s in times))
print(f"the long header: {header_result}")

closed = 0
for s in idle:
    if s.fileno() >= 0:
        try:
            if s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    s.close()
print(f"of the idle connections, {closed} had been closed by the server, {len(idle) - closed} were still open")
print(f"server CPU while the clients were on: {cpu_seconds() - cpu_start:.2f} s")
time.sleep(1)
before = cpu_seconds()
time.sleep(5)
print(f"server CPU in the 5 s after they closed: {cpu_seconds() - before:.2f} s")
t, status = summary_seconds()
print(f"summary afterwards: {t:.3f} s ({status})")
