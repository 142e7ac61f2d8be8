#!/usr/bin/env python3
"""Follows `reactor-inspect serve`'s event stream (the updates the page draws
from) while the stress sample records, and samples the server's RSS.

For each update it notes how far the figures trail the trace: the wall time
since the recorder was launched, minus the trace time the update covers (its
latest event's time; the recorder's clock starts with the process, so this is
an upper bound: it counts the process start-up as lag too). Prints one JSON
object with the lag percentiles, RSS samples and event rates.
"""
import argparse
import json
import socket
import threading
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--launched", type=float, required=True, help="time.monotonic() when the recorder was launched")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--warm-up", type=float, default=10, help="seconds of updates left out of the lag figures")
    parser.add_argument("--rss-every", type=float, default=5)
    arguments = parser.parse_args()

    rss, stop = [], threading.Event()

    def sample_rss():
        start = time.monotonic()
        while not stop.is_set():
            value = rss_kib(arguments.server_pid)
            if value is not None:
                rss.append((round(time.monotonic() - start, 1), value))
            stop.wait(arguments.rss_every)

    sampler = threading.Thread(target=sample_rss, daemon=True)
    sampler.start()

    connection = socket.create_connection(("127.0.0.1", arguments.port), timeout=30)
    connection.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{arguments.port}\r\n\r\n".encode())
    raw, body, headers_done = b"", b"", False
    lags, updates, first_update = [], [], None
    started = time.monotonic()
    while time.monotonic() - started < arguments.seconds:
        chunk = connection.recv(1 << 16)
        if not chunk:
            break
        raw += chunk
        if not headers_done:
            if b"\r\n\r\n" not in raw:
                continue
            raw = raw.split(b"\r\n\r\n", 1)[1]
            headers_done = True
        # Chunked transfer encoding: size line, that many bytes, CRLF.
        while b"\r\n" in raw:
            size_line, rest = raw.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            if len(rest) < size + 2:
                break
            body += rest[:size]
            raw = rest[size + 2:]
        while b"\n\n" in body:
            message, body = body.split(b"\n\n", 1)
            for line in message.split(b"\n"):
                if not line.startswith(b"data: "):
                    continue
                now = time.monotonic()
                update = json.loads(line[len(b"data: "):])
                snapshot = update.get("snapshot") or {}
                if first_update is None:
                    first_update = now
                behind = (now - arguments.launched) - update["lastTimestampNanoseconds"] / 1e9
                updates.append((now - started, snapshot.get("events", 0)))
                if now - first_update >= arguments.warm_up:
                    lags.append(behind)
    stop.set()
    sampler.join()
    connection.close()
    span = updates[-1][0] - updates[0][0] if len(updates) > 1 else 0
    rate = (updates[-1][1] - updates[0][1]) / span if span > 0 else 0
    rss_values = [value for _, value in rss]
    steady = [value for at, value in rss if at >= 60] or rss_values
    print(json.dumps({
        "seconds": round(time.monotonic() - started, 1),
        "updates": len(updates),
        "eventsSeen": updates[-1][1] if updates else 0,
        "eventsPerSecond": round(rate),
        "lagSeconds": {"p50": percentile(lags, 0.5), "p95": percentile(lags, 0.95), "p99": percentile(lags, 0.99),
                       "max": max(lags) if lags else None},
        "rssKiB": {"first": rss_values[0] if rss_values else None, "min": min(rss_values) if rss_values else None,
                   "max": max(rss_values) if rss_values else None, "last": rss_values[-1] if rss_values else None,
                   "afterFirstMinute": {"min": min(steady) if steady else None, "max": max(steady) if steady else None}},
        "rssSamples": rss,
    }))


if __name__ == "__main__":
    main()
