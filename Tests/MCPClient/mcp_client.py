"""End-to-end check of `reactor-inspect mcp` with the official Python MCP client.

usage: mcp_client.py REACTOR_INSPECT TRACE BUDGET

Starts the server over stdio, lists its tools, calls each one on TRACE and
compares the answer with what the CLI's --json prints for the same arguments;
then sends bad arguments, which must be error results while the server goes on.
Prints one line per failure and exits 1 if any; else prints "ok: N checks".
"""
import asyncio
import json
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BINARY, TRACE, BUDGET = sys.argv[1:4]
failures = []
checks = 0


def check(condition, message):
    global checks
    checks += 1
    if not condition:
        failures.append(message)


def cli(*arguments):
    result = subprocess.run([BINARY, *arguments], capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout


def field(value, snake, camel):
    """The field by either name: the client's releases spell them differently."""
    return getattr(value, snake) if hasattr(value, snake) else getattr(value, camel)


def is_error(result):
    return bool(field(result, "is_error", "isError"))


def text_of(result):
    return "".join(item.text for item in result.content if item.type == "text")


async def main():
    server = StdioServerParameters(command=BINARY, args=["mcp"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            info = await session.initialize()
            check(field(info, "server_info", "serverInfo").name == "reactor-inspect", "server name")
            tools = await session.list_tools()
            names = sorted(tool.name for tool in tools.tools)
            expected = sorted(["summary", "hot", "why", "state", "history", "waste", "check", "sql", "graph"])
            check(names == expected, f"tools: {names}")
            for tool in tools.tools:
                check("trace" in field(tool, "input_schema", "inputSchema").get("required", []), f"{tool.name} does not require trace")

            calls = [
                ("summary", {}, ["summary", "--json"]),
                ("hot", {"top": 3, "by": "time"}, ["hot", "--json", "--top", "3", "--by", "time"]),
                ("why", {"computation": "list", "limit": 2}, ["why", "--json", "--limit", "2", "--", TRACE, "list"]),
                ("state", {"at": "action:3"}, ["state", "--json", "--at", "action:3"]),
                ("history", {"name": "TodoStore.filter"}, ["history", "--json", "--", TRACE, "TodoStore.filter"]),
                ("waste", {}, ["waste", "--json"]),
                ("sql", {"query": "SELECT name, count(*) AS runs FROM runs GROUP BY name ORDER BY name"},
                 ["sql", "--json", "--", TRACE, "SELECT name, count(*) AS runs FROM runs GROUP BY name ORDER BY name"]),
            ]
            for name, arguments, words in calls:
                result = await session.call_tool(name, {"trace": TRACE, **arguments})
                check(not is_error(result), f"{name}: error result: {text_of(result)[:300]}")
                if "--" not in words:
                    words = words + [TRACE]
                status, output = cli(*words)
                check(status == 0, f"{name}: the CLI failed")
                check(json.loads(text_of(result)) == json.loads(output), f"{name}: the tool's answer is not the CLI's")

            # check: within budget, and exceeded (an error result that still carries the report).
            result = await session.call_tool("check", {"trace": TRACE, "budget": BUDGET})
            status, output = cli("check", "--json", "--budget", BUDGET, TRACE)
            check(is_error(result) == (status == 1), f"check: isError {is_error(result)}, CLI status {status}")
            check(json.loads(text_of(result)) == json.loads(output), "check: the tool's answer is not the CLI's")

            graph = await session.call_tool("graph", {"trace": TRACE, "focus": "list", "depth": 1})
            check(not is_error(graph) and text_of(graph).lstrip().startswith("digraph"), f"graph: {text_of(graph)[:200]}")

            bad = [
                ("hot", {"trace": TRACE, "top": "many"}),
                ("hot", {"trace": TRACE, "top": 0}),
                ("hot", {"trace": TRACE, "bogus": 1}),
                ("why", {"trace": TRACE}),
                ("why", {"trace": TRACE, "computation": "no such computation"}),
                ("summary", {}),
                ("summary", {"trace": "/nonexistent/x.trace"}),
                ("summary", {"trace": "--help"}),
                ("sql", {"trace": TRACE, "query": "DELETE FROM nodes"}),
                ("state", {"trace": TRACE, "at": "yesterday"}),
                ("nosuchtool", {"trace": TRACE}),
            ]
            for name, arguments in bad:
                try:
                    result = await session.call_tool(name, arguments)
                    check(is_error(result), f"{name} {arguments}: not an error result")
                    check(len(text_of(result).strip().splitlines()) >= 1, f"{name} {arguments}: no message")
                except Exception as error:  # a protocol error is an answer too, as long as the server lives
                    check(True, str(error))
                pong = await session.send_ping()
                check(pong is not None, f"the server died after {name} {arguments}")

            again = await session.call_tool("summary", {"trace": TRACE})
            check(not is_error(again), "summary after the bad calls failed")


asyncio.run(asyncio.wait_for(main(), timeout=240))
for failure in failures:
    print(failure)
if failures:
    sys.exit(1)
print(f"ok: {checks} checks")
