#!/usr/bin/env python3
"""rust-nostr's client (nostr-sdk wheel) syncing one key's gift wraps by NIP-77, for the speed bench's
side-by-side figure (issue 31).

usage: rust_sync.py RELAY_URL PUBKEY_HEX ITEMS_FILE

ITEMS_FILE holds the wraps the relay has, one "id created_at" a line: the local set of a full database.
Prints one JSON object:
  "empty": Client.sync into the client's own (empty) database: {"seconds", "received"}, or when it
           fails {"seconds", "error", "reconcile_seconds", "needed"} (the last two from a dry run: how
           long learning what it lacks took, and how many ids that was);
  "full":  the same relay reconciled with every item present: {"seconds", "received", "needed"}.

Why not Client.sync twice into one database: the wheel's LMDB database is driven through Python
callbacks that find no event loop on rust-nostr's threads (it stored 300 of 3 000 wraps in a trial),
and the default in-memory database keeps no events. Reconciling with the items given is what a full
database does in Client.sync.
"""
import asyncio
import json
import sys
import time

import nostr_sdk as n


async def client_for(url):
    client = n.Client()
    await client.add_relay(url)
    await client.connect()
    return client


async def main():
    url, pubkey, items_path = n.RelayUrl.parse(sys.argv[1]), n.PublicKey.parse(sys.argv[2]), sys.argv[3]
    f = n.Filter().kind(n.Kind(1059)).pubkey(pubkey)
    down = n.SyncOptions().direction(n.SyncDirection.DOWN)
    items = []
    with open(items_path) as lines:
        for line in lines:
            event_id, created_at = line.split()
            items.append(n.NegentropyItem(id=n.EventId.parse(event_id), timestamp=n.Timestamp.from_secs(int(created_at))))

    result = {}
    client = await client_for(url)
    start = time.monotonic()
    try:
        output = await client.sync(f, opts=down)
        failed = dict(output.failed)
        if failed:
            raise RuntimeError("; ".join(str(v) for v in failed.values()))
        result["empty"] = {"seconds": time.monotonic() - start, "received": len(output.report.received)}
    except Exception as error:  # rust-nostr's own words, for the bench to print
        empty = {"seconds": time.monotonic() - start, "error": str(error)}
        dry = await client_for(url)
        start = time.monotonic()
        report = await (await dry.relay(url)).sync(f, [], n.SyncOptions().direction(n.SyncDirection.DOWN).dry_run())
        empty["reconcile_seconds"] = time.monotonic() - start
        empty["needed"] = len(report.remote)
        result["empty"] = empty

    full = await client_for(url)
    start = time.monotonic()
    report = await (await full.relay(url)).sync(f, items, down)
    result["full"] = {"seconds": time.monotonic() - start, "received": len(report.received), "needed": len(report.remote)}
    print(json.dumps(result), flush=True)


asyncio.run(main())
