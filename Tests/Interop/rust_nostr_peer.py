#!/usr/bin/env python3
"""A rust-nostr peer (nostr-sdk PyPI wheel) for interop tests and the benchmark.

Commands (JSON on stdin/stdout):
  wrap         {"sender_secret", "recipient_pubkey", "kind", "content", "created_at", "tags"} -> gift wrap event JSON
  unwrap       {"recipient_secret", "wrap"} -> {"sender", "rumor"} or {"error"}
  bench-unwrap {"recipient_secret", "wraps": [...]} -> {"count", "seconds", "ok"}
  publish      {"relay", "events": [...]} -> {"ok": [bool, ...], "messages": [...]}
  fetch        {"relay", "recipient_secret"} -> {"gifts": [{"wrap_id", "sender", "rumor"}], "errors": [...]}
  event        {"secret", "kind", "content", "tags", "created_at"} -> a plain event signed by rust-nostr
  preference   {"secret", "plaintext", "key", "created_at"} -> a kind 30078 private preference as iOS builds it
  decrypt-self {"secret", "content"} -> {"plaintext"}: NIP-44 v2 to self, opened by rust-nostr
  preferences  {"secret", "items": [{"plaintext", "key", "created_at"}]} -> {"events": [...]}: many at once
  follow-lists {"names", "count", "crowded", "crowded_at", "start_at"} -> {"events": [...]}: kind 3 lists naming `names`, each
               from a new key: `count` one second apart from start_at down, `crowded` more all at crowded_at
  ios-backup   {"secret", "sessions", "posts", ...} (unix seconds) -> a .linkstrbackup file as the iOS app writes it
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
    # As the iOS app's strict decoder does (wire §15), the outer signature is checked first; our unwrap
    # skips it (the one-time key's signature proves nothing: NIP59.unwrap), rust-nostr's pool checks it.
    if not event.verify():
        raise ValueError("invalid wrap signature")
    return n.UnwrappedGift.from_gift_wrap(recipient, event)


def cmd_event(req):
    """A plain event (a follow list from "the phone", say) built and signed by rust-nostr."""
    builder = n.EventBuilder(n.Kind(req["kind"]), req.get("content", ""))
    tags = [n.Tag.parse(t) for t in req.get("tags", [])]
    if tags:
        builder = builder.tags(tags)
    builder = builder.custom_created_at(n.Timestamp.from_secs(req["created_at"]))
    return json.loads(builder.finalize(keys(req["secret"])).as_json())


PREFERENCES = "linkstr/preferences/v1/"


def cmd_preference(req):
    """Wire 2026 §3.2: NIP-44 v2 to self, d = namespace + hex(HMAC-SHA256(secret bytes, namespace + key))."""
    import hashlib
    import hmac
    k = keys(req["secret"])
    secret = bytes.fromhex(k.secret_key().to_hex())
    d = PREFERENCES + hmac.new(secret, (PREFERENCES + req["key"]).encode(), hashlib.sha256).hexdigest()
    content = n.nip44_encrypt(k.secret_key(), k.public_key(), req["plaintext"], n.Nip44Version.V2)
    builder = n.EventBuilder(n.Kind(30078), content).tags([n.Tag.parse(["d", d])])
    builder = builder.custom_created_at(n.Timestamp.from_secs(req["created_at"]))
    return json.loads(builder.finalize(k).as_json())


def cmd_preferences(req):
    return {"events": [cmd_preference(dict(item, secret=req["secret"])) for item in req["items"]]}


def cmd_follow_lists(req):
    events = []
    times = [req["start_at"] - i for i in range(req["count"])] + [req["crowded_at"]] * req.get("crowded", 0)
    for at in times:
        builder = n.EventBuilder(n.Kind(3), "").tags([n.Tag.parse(["p", name]) for name in req["names"]])
        builder = builder.custom_created_at(n.Timestamp.from_secs(at))
        events.append(json.loads(builder.finalize(n.Keys.generate()).as_json()))
    return {"events": events}


APPLE_EPOCH = 978307200


def cmd_ios_backup(req):
    """Wire 2026 §8: what the iOS app's default JSONEncoder writes. Dates are seconds since 2001 (a JSON
    number), Data is base64, nil optionals are left out. The request gives unix seconds and plain values;
    preference records are built here like `preference` (a list of {"plaintext", "key", "created_at",
    "pending"}); `overrides` replaces top-level keys verbatim (for broken files)."""
    import base64
    k = keys(req["secret"])

    def date(unix):
        return float(unix - APPLE_EPOCH)

    def dated(record, fields):
        out = {}
        for key, value in record.items():
            if value is None:
                continue
            out[key] = date(value) if key in fields else value
        return out

    account = req.get("account")
    if account is not None:
        account = dated(account, {"followDate", "profileDate", "createdAt", "updatedAt"})
        if "followTags" in account:
            account["followTags"] = base64.b64encode(json.dumps(account["followTags"]).encode()).decode()
    preferences = []
    for p in req.get("preferences", []):
        event = cmd_preference(dict(p, secret=req["secret"]))
        preferences.append({"event": base64.b64encode(json.dumps(event).encode()).decode(), "pending": p.get("pending", False)})
    relays = [dated(r, {"createdAt"}) for r in req.get("relays", [])]
    backup = {
        "version": 1,
        "createdAt": date(req.get("created_at", int(time.time()))),
        "nsec": k.secret_key().to_bech32(),
        "owner": k.public_key().to_hex(),
        "settings": {"loopLocalVideos": False, "customRelays": bool(relays) or req.get("custom_relays", False), "relays": relays},
        "sessions": [dated(s, {"createdAt", "updatedAt", "membershipDate"}) for s in req.get("sessions", [])],
        "posts": [dated(p, {"timestamp", "readAt"}) for p in req.get("posts", [])],
        "members": [dated(m, {"createdAt", "updatedAt"}) for m in req.get("members", [])],
        "intervals": [dated(i, {"start", "end"}) for i in req.get("intervals", [])],
        "reactions": [dated(r, {"updatedAt"}) for r in req.get("reactions", [])],
        "deletions": [dated(d, {"updatedAt"}) for d in req.get("deletions", [])],
        "contacts": [dated(c, {"createdAt", "profileDate"}) for c in req.get("contacts", [])],
        "follows": [dated(f, {"updatedAt"}) for f in req.get("follows", [])],
        "preferences": preferences,
    }
    if account is not None:
        backup["account"] = account
    backup.update(req.get("overrides", {}))
    return backup


def cmd_decrypt_self(req):
    k = keys(req["secret"])
    return {"plaintext": n.nip44_decrypt(k.secret_key(), k.public_key(), req["content"])}


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


def cmd_publish(req):
    from websockets.sync.client import connect
    oks, messages = [], []
    with connect(req["relay"], max_size=None) as ws:
        for event in req["events"]:
            ws.send(json.dumps(["EVENT", event]))
            while True:
                reply = json.loads(ws.recv(timeout=10))
                if reply[0] == "OK" and reply[1] == event["id"]:
                    oks.append(bool(reply[2]))
                    messages.append(reply[3] if len(reply) > 3 else "")
                    break
    return {"ok": oks, "messages": messages}


def cmd_fetch(req):
    """Every gift wrap for the recipient on the relay, opened by rust-nostr. A relay that wants NIP-42
    (an inbox relay that lets only its owner read) is answered with the recipient's key, and the
    request asked again after a CLOSED "auth-required:"."""
    from websockets.sync.client import connect
    recipient = keys(req["recipient_secret"])
    gifts, errors = [], []
    import time
    deadline = time.time() + req.get("timeout", 10)
    request = json.dumps(["REQ", "peer", {"kinds": [1059], "#p": [recipient.public_key().to_hex()], "limit": 5000}])
    auth_id, waiting_for_auth, authed, retried = None, False, False, False
    with connect(req["relay"], max_size=None) as ws:
        ws.send(request)
        while True:
            try:
                reply = json.loads(ws.recv(timeout=max(0.1, deadline - time.time())))
            except TimeoutError:
                errors.append("timed out before EOSE")
                break
            if reply[0] == "AUTH" and not authed:
                event = n.EventBuilder(n.Kind(22242), "").tags([n.Tag.parse(["relay", req["relay"]]),
                                                                 n.Tag.parse(["challenge", reply[1]])]).finalize(recipient)
                auth_id = event.id().to_hex()
                ws.send(json.dumps(["AUTH", json.loads(event.as_json())]))
                authed = True  # handled in order; nostr-relay never answers an AUTH with OK
                if waiting_for_auth:
                    waiting_for_auth = False
                    ws.send(request)
                continue
            if reply[0] == "OK" and reply[1] == auth_id:
                authed = bool(reply[2])
                if authed and waiting_for_auth:
                    waiting_for_auth = False
                    ws.send(request)
                continue
            # nostr-relay refuses with a NOTICE ("restricted: permission denied") before AUTH.
            refused = reply[0] == "NOTICE" and str(reply[1]).startswith(("restricted", "auth-required"))
            if refused and not retried:
                retried = True
                if authed:
                    ws.send(request)
                else:
                    waiting_for_auth = True
                continue
            if reply[0] == "CLOSED" and reply[1] == "peer" and str(reply[2]).startswith("auth-required") and not waiting_for_auth:
                if authed:
                    ws.send(request)
                else:
                    waiting_for_auth = True
                continue
            if reply[0] == "CLOSED":
                errors.append("closed: " + str(reply[2]))
                break
            if reply[0] == "EOSE":
                break
            if reply[0] != "EVENT":
                continue
            try:
                gift = open_wrap(recipient, json.dumps(reply[2]))
                gifts.append({"wrap_id": reply[2]["id"], "sender": gift.sender().to_hex(), "rumor": json.loads(gift.rumor().as_json())})
            except Exception as e:
                errors.append(str(e))
    return {"gifts": gifts, "errors": errors}


def cmd_query(req):
    """Every event matching one filter, as the relay returns it until EOSE."""
    from websockets.sync.client import connect
    events = []
    with connect(req["relay"], max_size=None) as ws:
        ws.send(json.dumps(["REQ", "query", req["filter"]]))
        while True:
            reply = json.loads(ws.recv(timeout=req.get("timeout", 10)))
            if reply[0] == "EOSE":
                break
            if reply[0] == "EVENT":
                events.append(reply[2])
    return {"events": events}


def main():
    command = sys.argv[1]
    req = json.load(sys.stdin)
    out = {"wrap": cmd_wrap, "unwrap": cmd_unwrap, "bench-unwrap": cmd_bench_unwrap, "publish": cmd_publish, "fetch": cmd_fetch, "event": cmd_event, "preference": cmd_preference, "preferences": cmd_preferences, "decrypt-self": cmd_decrypt_self, "ios-backup": cmd_ios_backup, "follow-lists": cmd_follow_lists,
           "query": cmd_query}[command](req)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
