#!/usr/bin/env python3
"""A rust-nostr peer (nostr-sdk PyPI wheel) for interop tests and the benchmark.

Commands (JSON on stdin/stdout):
  wrap         {"sender_secret", "recipient_pubkey", "kind", "content", "created_at", "tags"} -> gift wrap event JSON
  unwrap       {"recipient_secret", "wrap"} -> {"sender", "rumor"} or {"error"}
  bench-unwrap {"recipient_secret", "wraps": [...]} -> {"count", "seconds", "ok"}
"""
import json
import sys
import time

import nostr_sdk as n


def keys(secret_hex):
    return n.Keys.parse(secret_hex)


def cmd_wrap(req):
    sender = keys(req["sender_secret"])
    recipient = n.PublicKey.parse(req["recipient_pubkey"])
    builder = n.EventBuilder(n.Kind(req["kind"]), req["content"])
    tags = [n.Tag.parse(t) for t in req.get("tags", [])]
    if tags:
        builder = builder.tags(tags)
    builder = builder.custom_created_at(n.Timestamp.from_secs(req["created_at"]))
    rumor = builder.finalize_unsigned(sender.public_key())
    wrap = n.nip59_make_gift_wrap(sender, recipient, rumor)
    return json.loads(wrap.as_json())


def open_wrap(recipient, wrap_json):
    event = n.Event.from_json(wrap_json)
    # Like our unwrap: the outer signature is checked before anything is decrypted.
    if not event.verify():
        raise ValueError("invalid wrap signature")
    return n.UnwrappedGift.from_gift_wrap(recipient, event)


def cmd_unwrap(req):
    recipient = keys(req["recipient_secret"])
    try:
        gift = open_wrap(recipient, json.dumps(req["wrap"]))
    except Exception as e:  # report, do not crash: the caller asserts on it
        return {"error": str(e)}
    return {"sender": gift.sender().to_hex(), "rumor": json.loads(gift.rumor().as_json())}


def cmd_bench_unwrap(req):
    recipient = keys(req["recipient_secret"])
    wraps = [json.dumps(w) for w in req["wraps"]]
    ok = 0
    start = time.perf_counter()
    for w in wraps:
        gift = open_wrap(recipient, w)
        if gift.rumor() is not None:
            ok += 1
    seconds = time.perf_counter() - start
    return {"count": len(wraps), "ok": ok, "seconds": seconds}


def main():
    command = sys.argv[1]
    req = json.load(sys.stdin)
    out = {"wrap": cmd_wrap, "unwrap": cmd_unwrap, "bench-unwrap": cmd_bench_unwrap}[command](req)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
