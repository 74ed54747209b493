#!/usr/bin/env python3
"""rust-nostr's relay (LocalRelay from the nostr-sdk wheel) on 127.0.0.1, for linkstr's interop tests.

usage: rust_relay.py PORT [MAX_FILTER_LIMIT] [--auth-dm]

With --auth-dm it is an inbox relay as the big ones are: gift wraps and DMs are read only by the key
they are addressed to, after NIP-42 AUTH (a REQ is CLOSED and a NEG-OPEN answered NEG-ERR
"auth-required:" before).

Its per-connection write rate limit is raised (tests seed thousands of gift wraps over one connection).

It behaves unlike nostr-relay where linkstr must cope: it refuses NIP-09 deletion requests for events
another key signed (gift wraps are signed by one-time keys), caps `limit`, and handles `until` its own way.
Memory only: the data lives as long as the process.
"""
import asyncio
import sys

from nostr_sdk import LocalRelayBuilder, RateLimit


async def main():
    port = int(sys.argv[1])
    options = sys.argv[2:]
    builder = LocalRelayBuilder().port(port).addr("127.0.0.1").rate_limit(RateLimit(max_reqs=500, notes_per_minute=1_000_000))
    limits = [o for o in options if o.isdigit()]
    if limits:
        builder = builder.max_filter_limit(int(limits[0]))
    if "--auth-dm" in options:
        builder = builder.auth_dm(True)
    relay = builder.build()
    await relay.run()
    print(await relay.url(), flush=True)
    await asyncio.Future()


asyncio.run(main())
