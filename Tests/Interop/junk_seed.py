#!/usr/bin/env python3
"""Publishes junk gift wraps to a relay (one that stores events without checking signatures).

usage: junk_seed.py URL RECIPIENT_HEX COUNT

Each is a kind 1059 for RECIPIENT with a correct id, a real pubkey and a wrong signature: it parses,
and only a signature check rejects it. Prints how many the relay accepted.
"""
import asyncio
import json
import sys

from websockets.asyncio.client import connect

from junk import junk_wrap


async def main():
    url, recipient, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    accepted = 0
    async with connect(url, max_size=None) as ws:
        pending = 0

        async def drain(until):
            nonlocal pending, accepted
            while pending > until:
                reply = json.loads(await ws.recv())
                if reply[0] == "OK":
                    pending -= 1
                    accepted += 1 if reply[2] else 0
        for _ in range(count):
            await ws.send(json.dumps(["EVENT", junk_wrap(recipient)]))
            pending += 1
            if pending >= 500:
                await drain(250)
        await drain(0)
    print(accepted)


asyncio.run(main())
