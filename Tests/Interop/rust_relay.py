#!/usr/bin/env python3
"""rust-nostr's relay (LocalRelay from the nostr-sdk wheel) on 127.0.0.1, for linkstr's interop tests.

usage: rust_relay.py PORT [MAX_FILTER_LIMIT]

It behaves unlike nostr-relay where linkstr must cope: it refuses NIP-09 deletion requests for events
another key signed (gift wraps are signed by one-time keys), caps `limit`, and handles `until` its own way.
Memory only: the data lives as long as the process.
"""
import asyncio
import sys

from nostr_sdk import LocalRelayBuilder


async def main():
    port = int(sys.argv[1])
    builder = LocalRelayBuilder().port(port).addr("127.0.0.1")
    if len(sys.argv) > 2:
        builder = builder.max_filter_limit(int(sys.argv[2]))
    relay = builder.build()
    await relay.run()
    print(await relay.url(), flush=True)
    await asyncio.Future()


asyncio.run(main())
