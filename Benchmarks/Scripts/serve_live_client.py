#!/usr/bin/env python3
"""Asks `reactor-inspect serve` each on-demand panel's question while its
trace grows, and prints how long each answer took (see serve-live.sh).

Waits until the followed trace holds --events events, then asks, one at a
time, what the page asks: the summary, the graph, the state and the graph at
the end, at the first action, at a tenth, half and nine tenths of the trace's
time, why for the hottest computation, the latest events (`replay`) and the
timeline. Each line: the question, its status, seconds, and the events the
follower had read then and its rate.
"""
import argparse
import http.client
import json
import socket
import time


def get(port, target, timeout):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.monotonic()
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        body = response.read()
        return response.status, time.monotonic() - started, body
    except OSError as error:
        return f"error: {error}", time.monotonic() - started, b""
    finally:
        connection.close()


def first_update(port):
    """The first `update` of the event stream: the trace's first and last event times."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as stream:
        stream.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        raw = b""
        while b"\r\n\r\n" not in raw:
            raw += stream.recv(65536)
        raw = raw.split(b"\r\n\r\n", 1)[1]
        body = b""
        # The body is chunk-encoded: take whole chunks until a message's data line is complete.
        while True:
            while b"\r\n" in raw:
                size_line, rest = raw.split(b"\r\n", 1)
                size = int(size_line, 16)
                if len(rest) < size + 2:
                    break
                body += rest[:size]
                raw = rest[size + 2:]
            if b"data: " in body and b"\n" in body.split(b"data: ", 1)[1]:
                return json.loads(body.split(b"data: ", 1)[1].split(b"\n", 1)[0])
            raw += stream.recv(65536)


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--events", type=int, default=100_000_000)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--questions", choices=("all", "moments"), default="all",
                        help="moments: only the state and graph at moments")
    arguments = parser.parse_args()

    started = time.monotonic()
    last_note = 0
    while True:
        status, _, body = get(arguments.port, "/api/snapshot", 10)
        if status == 200:
            snapshot = json.loads(body)
            if snapshot["events"] >= arguments.events:
                break
            if snapshot["status"] not in ("recording", "waiting"):
                raise SystemExit(f"the trace is {snapshot['status']} at {snapshot['events']} events")
            if time.monotonic() - last_note > 15:
                last_note = time.monotonic()
                print(f"# {time.monotonic() - started:.0f} s: {snapshot['events']:,} events read, "
                      f"{snapshot['eventsPerSecond']:,.0f}/s", flush=True)
        time.sleep(0.5)

    snapshot = json.loads(get(arguments.port, "/api/snapshot", 10)[2])
    hot = snapshot["hot"][0]["name"] if snapshot["hot"] else "effect0"
    update = first_update(arguments.port)
    first, last = update.get("firstTimestampNanoseconds"), update.get("lastTimestampNanoseconds")
    questions = [("summary", "/api/summary"), ("graph", "/api/graph"),
                 ("state at end", "/api/state?at=end"), ("graph at end", "/api/graph?at=end"),
                 ("state at action:1", "/api/state?at=action:1")]
    if first is not None and last is not None:
        for label, fraction in (("a tenth", 0.1), ("half", 0.5), ("nine tenths", 0.9)):
            moment = int(first + (last - first) * fraction)
            questions.append((f"state at {label} of the time", f"/api/state?at={moment}ns"))
        questions.append(("graph at half of the time", f"/api/graph?at={int(first + (last - first) * 0.5)}ns"))
        # The reference: a moment at the last event read is a pass over all of it, what every
        # moment cost before the live index (then over the whole file as it stood, not less).
        questions.append(("state at the last event's time", f"/api/state?at={last}ns"))
    if arguments.questions == "moments":
        questions = [question for question in questions if "?at=" in question[1]]
    else:
        questions += [(f"why {hot}", f"/api/why?node={hot}&limit=10"),
                      ("timeline", "/api/timeline?width=1000"),
                      ("events (replay, latest 200)", "/api/replay?format=text&limit=200")]
    results = []
    for label, target in questions:
        before = json.loads(get(arguments.port, "/api/snapshot", 10)[2])
        status, seconds, body = get(arguments.port, target, arguments.timeout)
        results.append({"question": label, "target": target, "status": status, "seconds": round(seconds, 3),
                        "eventsRead": before["events"], "eventsPerSecond": round(before["eventsPerSecond"]),
                        "serverMiB": round(rss_mib(arguments.server_pid) or 0, 1)})
        print(f"{label:34} {str(status):>4} {seconds:8.3f} s   at {before['events']:,} events, "
              f"{before['eventsPerSecond']:,.0f}/s, serve {rss_mib(arguments.server_pid):.0f} MiB", flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
