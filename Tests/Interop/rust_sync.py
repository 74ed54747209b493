#!/usr/bin/env python3
"""rust-nostr's client (nostr-sdk wheel) syncing one key's gift wraps by NIP-77 into its LMDB
database, for the benchmark's side-by-side figure.
usage: rust_sync.py RELAY_URL DATABASE_DIR PUBKEY_HEX
prints {"seconds": wall time of Client.sync, "received": ids fetched, "stored": events in the database}"""
import asyncio
import json
import sys
import time

import nostr_sdk as n


async def main():
    url, path, pubkey = sys.argv[1], sys.argv[2], sys.argv[3]
    database = await n.NostrLmdb.open(path)
    client = n.ClientBuilder().database(database).build()
    await client.add_relay(n.RelayUrl.parse(url))
    await client.connect()
    f = n.Filter().kind(n.Kind(1059)).pubkey(n.PublicKey.parse(pubkey))
    start = time.monotonic()
    output = await client.sync(f, opts=n.SyncOptions().direction(n.SyncDirection.DOWN))
    seconds = time.monotonic() - start
    received = len(output.report.received)
    stored = await database.count(f)
    print(json.dumps({"seconds": seconds, "received": received, "stored": stored}), flush=True)
    await client.disconnect()


asyncio.run(main())
