#!/usr/bin/env python3
"""Validates OTLP/JSON files against the official OpenTelemetry schema.

Usage: validate_otlp.py FILE...

Each file must parse as an ExportTraceServiceRequest with
google.protobuf.json_format (opentelemetry-proto from PyPI), after the one
translation OTLP/JSON defines on top of the protobuf JSON mapping: trace and
span ids are hex, where the mapping has base64 for bytes. Then: ids have the
right length (16 and 8 bytes) and are not zero, span ids are unique, parents
and links point at spans of the file, times are ordered, enums are integers.
Prints one JSON object per file: its span counts by reactor.span.kind, the
link count and the service name. Exits 1 on the first invalid file.
"""
import base64
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

ID_FIELDS = {"traceId": 32, "spanId": 16, "parentSpanId": 16}


def fail(path, message):
    print(f"{path}: {message}", file=sys.stderr)
    sys.exit(1)


def hex_ids_to_base64(path, node):
    """OTLP/JSON ids are hex; the protobuf JSON parser wants base64 for bytes."""
    if isinstance(node, list):
        for item in node:
            hex_ids_to_base64(path, item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in ID_FIELDS and isinstance(value, str):
                if len(value) != ID_FIELDS[key] or any(c not in "0123456789abcdefABCDEF" for c in value):
                    fail(path, f"{key} {value!r} is not {ID_FIELDS[key]} hex digits")
                node[key] = base64.b64encode(bytes.fromhex(value)).decode()
            elif key == "kind" and not isinstance(value, int):
                fail(path, f"enum kind {value!r} is not an integer (OTLP/JSON requires integers)")
            else:
                hex_ids_to_base64(path, value)


def validate(path):
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    hex_ids_to_base64(path, document)
    request = ExportTraceServiceRequest()
    try:
        json_format.Parse(json.dumps(document), request)
    except json_format.ParseError as error:
        fail(path, f"not an ExportTraceServiceRequest: {error}")
    spans = [span for resource in request.resource_spans for scope in resource.scope_spans for span in scope.spans]
    if not spans:
        fail(path, "no spans")
    ids = set()
    for span in spans:
        if len(span.trace_id) != 16 or span.trace_id == bytes(16):
            fail(path, f"span {span.name!r}: bad trace id")
        if len(span.span_id) != 8 or span.span_id == bytes(8):
            fail(path, f"span {span.name!r}: bad span id")
        if span.span_id in ids:
            fail(path, f"span {span.name!r}: duplicate span id {span.span_id.hex()}")
        ids.add(span.span_id)
        if span.end_time_unix_nano < span.start_time_unix_nano:
            fail(path, f"span {span.name!r} ends before it starts")
        if span.kind != 1:
            fail(path, f"span {span.name!r}: kind {span.kind}, expected SPAN_KIND_INTERNAL (1)")
    counts = {}
    links = 0
    for span in spans:
        if span.parent_span_id and span.parent_span_id not in ids:
            fail(path, f"span {span.name!r}: parent {span.parent_span_id.hex()} is not in the file")
        for link in span.links:
            links += 1
            if link.span_id not in ids:
                fail(path, f"span {span.name!r}: link to {link.span_id.hex()}, not in the file")
        kind = next((a.value.string_value for a in span.attributes if a.key == "reactor.span.kind"), None)
        if kind is None:
            fail(path, f"span {span.name!r} has no reactor.span.kind")
        counts[kind] = counts.get(kind, 0) + 1
    roots = [span for span in spans if not span.parent_span_id]
    if len(roots) != 1:
        fail(path, f"{len(roots)} root spans, expected one (the recording)")
    service = next((a.value.string_value for r in request.resource_spans for a in r.resource.attributes
                    if a.key == "service.name"), None)
    print(json.dumps({"file": path, "spans": counts, "links": links, "service": service}, sort_keys=True))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for argument in sys.argv[1:]:
        validate(argument)
