#!/usr/bin/env python3
"""A small in-memory relay on 127.0.0.1:PORT whose NIP-11 document says `max_message_length` (and
`payment_required` / `restricted_writes` when asked), and which refuses a message longer than that, as
a relay with a size limit does. Enough of NIP-01 for linkstr's delivery: EVENT (signatures are not
checked: it stores what it is given), REQ by ids, authors, kinds and #p, CLOSE.
usage: limited_relay.py PORT MAX_MESSAGE_LENGTH [paid] [restricted]"""
import asyncio
import json
import sys

from websockets.asyncio.server import serve
from websockets.http11 import Response
from websockets.datastructures import Headers

PORT, LIMIT = int(sys.argv[1]), int(sys.argv[2])
FLAGS = set(sys.argv[3:])
events = []


def info(connection, request):
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    body = json.dumps({"name": "limited", "supported_nips": [1, 11],
                       "limitation": {"max_message_length": LIMIT, "payment_required": "paid" in FLAGS,
                                      "restricted_writes": "restricted" in FLAGS}}).encode()
    return Response(200, "OK", Headers([("Content-Type", "application/nostr+json"), ("Content-Length", str(len(body)))]), body)


def matches(e, f):
    if "ids" in f and e["id"] not in f["ids"]:
        return False
    if "authors" in f and e["pubkey"] not in f["authors"]:
        return False
    if "kinds" in f and e["kind"] not in f["kinds"]:
        return False
    if "#p" in f and not any(t[:1] == ["p"] and len(t) > 1 and t[1] in f["#p"] for t in e["tags"]):
        return False
    return True


async def handle(ws):
    async for raw in ws:
        message = json.loads(raw)
        if message[0] == "EVENT":
            event = message[1]
            if len(raw.encode()) > LIMIT:
                await ws.send(json.dumps(["OK", event["id"], False, "invalid: message too large"]))
                continue
            if all(e["id"] != event["id"] for e in events):
                events.append(event)
            await ws.send(json.dumps(["OK", event["id"], True, ""]))
        elif message[0] == "REQ":
            sub = message[1]
            for e in events:
                if any(matches(e, f) for f in message[2:]):
                    await ws.send(json.dumps(["EVENT", sub, e]))
            await ws.send(json.dumps(["EOSE", sub]))


async def main():
    async with serve(handle, "127.0.0.1", PORT, process_request=info, max_size=None):
        await asyncio.Future()


asyncio.run(main())
