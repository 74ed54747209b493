#!/usr/bin/env python3
"""A relay on 127.0.0.1:PORT that speaks NIP-77 dishonestly, for linkstr's bounded-work tests. Its
NIP-11 lists 77. REQs are answered from what it was given by EVENT (no checks), then EOSE.
usage: negentropy_liar.py PORT MODE
  fingerprints  every NEG-MSG answer is one random fingerprint over the whole space: it never agrees
  foreign-ids   the first answer offers the ids of the kind 1 events it holds (not gift wraps for
                anyone), as missing; a REQ by ids is answered with every event of those ids,
                whatever else the filter says
  new-ids       every answer offers 25 ids never offered before and a fingerprint that never agrees
  phantom-ids   the first answer offers 19,999 made-up ids; a REQ by ids gets EOSE and nothing
  garbage       the first answer is not hex
  closed        NEG-OPEN is answered with CLOSED, as some relays refuse it
  silent        NEG-OPEN is ignored, as relays without NIP-77 do"""
import asyncio
import json
import os
import sys

from websockets.asyncio.server import serve
from websockets.http11 import Response
from websockets.datastructures import Headers

PORT, MODE = int(sys.argv[1]), sys.argv[2]
events = []


def info(connection, request):
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    body = json.dumps({"name": "liar", "supported_nips": [1, 11, 77]}).encode()
    return Response(200, "OK", Headers([("Content-Type", "application/nostr+json"), ("Content-Length", str(len(body)))]), body)


def matches(e, f):
    if "ids" in f:
        return e["id"] in f["ids"]
    if "kinds" in f and e["kind"] not in f["kinds"]:
        return False
    if "#p" in f and not any(t[:1] == ["p"] and len(t) > 1 and t[1] in f["#p"] for t in e["tags"]):
        return False
    return True


def varint(n):
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.insert(0, (n & 0x7F) | 0x80)
        n >>= 7
    return bytes(out)


def answer():
    if MODE == "new-ids":
        ids = b"".join(os.urandom(32) for _ in range(25))
        return (b"\x61\x0c\x00\x02" + varint(25) + ids + b"\x00\x00\x01" + os.urandom(16)).hex()
    if MODE == "phantom-ids":
        ids = b"".join(os.urandom(32) for _ in range(19_999))
        return (b"\x61\x00\x00\x02" + varint(19_999) + ids).hex()
    if MODE == "garbage":
        return "zz-not-hex"
    if MODE == "foreign-ids":
        ids = [bytes.fromhex(e["id"]) for e in events if e["kind"] == 1]
        return (b"\x61\x00\x00\x02" + varint(len(ids)) + b"".join(ids)).hex()
    return (b"\x61\x00\x00\x01" + os.urandom(16)).hex()


async def handle(ws):
    async for raw in ws:
        message = json.loads(raw)
        if message[0] == "EVENT":
            events.append(message[1])
            await ws.send(json.dumps(["OK", message[1]["id"], True, ""]))
        elif message[0] == "NEG-OPEN" and MODE == "closed":
            await ws.send(json.dumps(["CLOSED", message[1], "error: no negentropy here"]))
        elif message[0] == "NEG-OPEN" and MODE == "silent":
            continue
        elif message[0] in ("NEG-OPEN", "NEG-MSG"):
            if MODE in ("foreign-ids", "phantom-ids") and message[0] == "NEG-MSG":
                await ws.send(json.dumps(["NEG-MSG", message[1], "61"]))
                continue
            await ws.send(json.dumps(["NEG-MSG", message[1], answer()]))
        elif message[0] == "REQ":
            sub = message[1]
            if MODE == "phantom-ids" and any("ids" in f for f in message[2:]):
                await ws.send(json.dumps(["EOSE", sub]))
                continue
            for e in events:
                if any(matches(e, f) for f in message[2:]):
                    await ws.send(json.dumps(["EVENT", sub, e]))
            await ws.send(json.dumps(["EOSE", sub]))


async def main():
    async with serve(handle, "127.0.0.1", PORT, process_request=info, max_size=None):
        await asyncio.Future()


asyncio.run(main())
