#!/usr/bin/env python3
"""A WebSocket proxy in front of a real relay that injects faults, for linkstr's fault tests.

usage: fault_proxy.py PORT UPSTREAM MODE ARG
  forward 0         pass everything through
  drop N            on the first connection, cut it after N relayed EVENTs (mid-backfill)
  blocked 0         answer every EVENT with ["OK", id, false, "blocked: ..."] (nothing reaches the relay)
  slow MS           hold every OK from the relay MS milliseconds before passing it on (a slow relay: each
                    publish takes that long to be confirmed)
  refuse FILE       answer an EVENT whose id is a line of FILE (read at each EVENT) with ["OK", id, false,
                    "invalid: ..."]; every other message passes
  garbage 0         interleave malformed frames with the real ones
  silent 0          accept the WebSocket, then never answer anything
  flap MS           close every connection MS milliseconds after it opens
  authloop FILE     a NIP-42 relay gone wrong: a fresh challenge after every AUTH and REQ, a NOTICE
                    "auth-required:" after every AUTH, and a REQ refused with auth-required unless the
                    last AUTH answered the newest challenge;
                    counts of AUTH and REQ messages received, and of connections, are kept in FILE ("auths reqs connections")
  flood N           after the live subscription's REQ, stream N junk gift wraps on it (0: without end):
                    correct ids, a real pubkey, bad signatures (a relay that keeps streaming)
  variants FILE     after the live subscription's REQ, stream variants of the genuine gift wrap in FILE on it
                    without end: each with a new created_at and its id made again, every other one with the
                    wrap's own signature, the rest with a random one (what anyone could mint without the
                    one-time key)
  tls PREFIX        forward everything, serving wss:// with the certificate PREFIX.pem and key PREFIX.key
  closed SPEC       refuse history pages (REQ linkstr-backfill-… with an `until`) with CLOSED: SPEC is
                    "TIMES|REASON" (TIMES -1: every time), counted over all connections
  huge SPEC         on every connection, send one NOTICE of SIZE bytes before anything else; SPEC is
                    "SIZE|FILE", FILE keeps the number of connections so far
  burst 0           hold each subscription's stored events until its EOSE, then send them and the EOSE
                    back to back (as a relay that answers from memory does)
  auth-late 0       hold the client's AUTH until its first NEG-OPEN has reached the relay (at most 2 s;
                    everything else passes): a relay that wants AUTH first always refuses that NEG-OPEN,
                    as it does whenever the NEG-OPEN beats the AUTH
"""
import asyncio
import json
import ssl
import sys

from junk import junk_wrap, wrap_variants
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve

PORT, UPSTREAM, MODE, ARG_TEXT = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
ARG = int(ARG_TEXT) if ARG_TEXT.lstrip("-").isdigit() else 0
connections = 0
counts = {"AUTH": 0, "REQ": 0}
refusals = {"left": int(ARG_TEXT.split("|", 1)[0]) if MODE == "closed" else 0}

GARBAGE = [
    "not json at all", "[", "{}", "[]", "[1,2,3]", '["EVENT"]', '["EVENT","sub",{"id":5}]',
    '["OK","zz",true,""]', '["EOSE",42]', '["NOTICE",' + '"x"' * 3 + "]", '["CLOSED"]', '["AUTH",{}]',
    '["EVENT","linkstr-live",{"id":"' + "0" * 64 + '","pubkey":"' + "1" * 64 + '","created_at":1e999,"kind":1059,"tags":[],"content":"","sig":"' + "2" * 128 + '"}]',
    '[' * 500 + ']' * 500, '["NOTICE","' + "A" * 100000 + '"]', '["EVENT","s",{"kind":"1059"}]', "\u0000\u0001\u0002",
]


async def flood(client, sub, recipient, count):
    sent = 0
    while count == 0 or sent < count:
        await client.send(json.dumps(["EVENT", sub, junk_wrap(recipient)]))
        sent += 1
        if sent % 200 == 0:
            await asyncio.sleep(0)


async def stream_variants(client, sub):
    with open(ARG_TEXT) as f:
        genuine = json.load(f)
    for sent, variant in enumerate(wrap_variants(genuine), 1):
        await client.send(json.dumps(["EVENT", sub, variant]))
        if sent % 200 == 0:
            await asyncio.sleep(0)


async def handler(client):
    global connections
    connections += 1
    number = connections
    if MODE == "silent":
        await asyncio.sleep(3600)
        return
    if MODE == "flap":
        await asyncio.sleep(ARG / 1000)
        await client.close()
        return
    async with connect(UPSTREAM, max_size=None) as upstream:
        relayed = 0
        negentropy_sent = asyncio.Event()

        async def auth_after_negentropy(message):
            try:
                await asyncio.wait_for(negentropy_sent.wait(), 2)
                await asyncio.sleep(0.1)  # the relay has read the NEG-OPEN first
            except asyncio.TimeoutError:
                pass
            await upstream.send(message)
        challenge = {"current": "c%d-0" % number, "answered": None, "n": 0}

        async def new_challenge():
            challenge["n"] += 1
            challenge["current"] = "c%d-%d" % (number, challenge["n"])
            await client.send(json.dumps(["AUTH", challenge["current"]]))

        if MODE == "authloop":
            await client.send(json.dumps(["AUTH", challenge["current"]]))
        if MODE == "huge":
            size, count_file = ARG_TEXT.split("|", 1)
            with open(count_file, "w") as f:
                f.write(str(number))
            await client.send(json.dumps(["NOTICE", "x" * int(size)]))

        async def client_to_upstream():
            async for message in client:
                if MODE == "authloop":
                    parsed = json.loads(message)
                    if parsed[0] in counts:
                        counts[parsed[0]] += 1
                        with open(ARG_TEXT, "w") as f:
                            f.write("%d %d %d" % (counts["AUTH"], counts["REQ"], connections))
                    if parsed[0] == "AUTH":
                        tags = dict((t[0], t[1]) for t in parsed[1].get("tags", []) if len(t) > 1)
                        challenge["answered"] = tags.get("challenge")
                        await client.send(json.dumps(["OK", parsed[1]["id"], True, ""]))
                        await new_challenge()
                        await client.send(json.dumps(["NOTICE", "auth-required: authenticate again"]))
                        continue
                    if parsed[0] == "REQ":
                        if challenge["answered"] != challenge["current"]:
                            await client.send(json.dumps(["CLOSED", parsed[1], "auth-required: authenticate first"]))
                            continue
                        await upstream.send(message)
                        await new_challenge()
                        continue
                if MODE == "flood":
                    parsed = json.loads(message)
                    if parsed[0] == "REQ" and parsed[1] == "linkstr-live":
                        recipient = parsed[2].get("#p", [""])[0]
                        asyncio.create_task(flood(client, parsed[1], recipient, ARG))
                if MODE == "variants":
                    parsed = json.loads(message)
                    if parsed[0] == "REQ" and parsed[1] == "linkstr-live":
                        asyncio.create_task(stream_variants(client, parsed[1]))
                if MODE == "closed":
                    parsed = json.loads(message)
                    if (parsed[0] == "REQ" and parsed[1].startswith("linkstr-backfill-") and "until" in parsed[2]
                            and refusals["left"] != 0):
                        refusals["left"] -= 1
                        await client.send(json.dumps(["CLOSED", parsed[1], ARG_TEXT.split("|", 1)[1]]))
                        continue
                if MODE == "auth-late" and message.startswith('["AUTH"') and not negentropy_sent.is_set():
                    asyncio.create_task(auth_after_negentropy(message))
                    continue
                if MODE == "auth-late" and message.startswith('["NEG-OPEN"'):
                    await upstream.send(message)
                    negentropy_sent.set()
                    continue
                if MODE == "refuse" and message.startswith('["EVENT"'):
                    parsed = json.loads(message)
                    try:
                        with open(ARG_TEXT) as f:
                            refused = set(line.strip() for line in f)
                    except OSError:
                        refused = set()
                    if parsed[1].get("id") in refused:
                        await client.send(json.dumps(["OK", parsed[1]["id"], False, "invalid: this event is not allowed here"]))
                        continue
                if MODE == "blocked":
                    try:
                        parsed = json.loads(message)
                    except ValueError:
                        parsed = None
                    if parsed and parsed[0] == "EVENT":
                        await client.send(json.dumps(["OK", parsed[1]["id"], False, "blocked: this relay does not accept your events"]))
                        continue
                await upstream.send(message)

        held = {}
        answered = set()

        async def upstream_to_client():
            nonlocal relayed
            i = 0
            async for message in upstream:
                if MODE == "burst":
                    parsed = json.loads(message)
                    if parsed[0] == "EVENT" and parsed[1] not in answered:
                        held.setdefault(parsed[1], []).append(message)
                        continue
                    if parsed[0] == "EOSE":
                        answered.add(parsed[1])
                        for stored in held.pop(parsed[1], []):
                            await client.send(stored)
                if MODE == "garbage":
                    await client.send(GARBAGE[i % len(GARBAGE)])
                    i += 1
                if MODE == "slow" and message.startswith('["OK"'):
                    await asyncio.sleep(ARG / 1000)
                if MODE == "drop" and number == 1 and message.startswith('["EVENT"'):
                    relayed += 1
                    if relayed > ARG:
                        client.transport.abort()  # an abrupt cut, no close frame
                        return
                await client.send(message)

        tasks = [asyncio.create_task(client_to_upstream()), asyncio.create_task(upstream_to_client())]
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for t in pending:
            t.cancel()


async def main():
    context = None
    if MODE == "tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(ARG_TEXT + ".pem", ARG_TEXT + ".key")
    async with serve(handler, "127.0.0.1", PORT, max_size=None, ping_interval=None, ssl=context):
        await asyncio.Future()


asyncio.run(main())
