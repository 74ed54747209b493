"""Junk gift wraps for linkstr's flood tests: they parse and have correct ids, only the signature is wrong."""
import base64
import hashlib
import json
import os
import time

JUNK_PUBKEY = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"


def junk_wrap(recipient):
    """A kind 1059 for `recipient` with the right id and a real pubkey, but a wrong signature."""
    created_at = int(time.time())
    tags = [["p", recipient]]
    content = base64.b64encode(os.urandom(300)).decode()
    serialized = json.dumps([0, JUNK_PUBKEY, created_at, 1059, tags, content], separators=(",", ":"), ensure_ascii=False)
    return {"id": hashlib.sha256(serialized.encode()).hexdigest(), "pubkey": JUNK_PUBKEY, "created_at": created_at,
            "kind": 1059, "tags": tags, "content": content, "sig": os.urandom(64).hex()}


def wrap_variants(genuine):
    """Endless variants of a genuine gift wrap: a new created_at each, the id made again; every other one
    keeps the wrap's signature, the rest get a random one. Without the one-time key none is signed right."""
    shift = 0
    while True:
        shift += 1
        created_at = genuine["created_at"] - shift
        serialized = json.dumps([0, genuine["pubkey"], created_at, genuine["kind"], genuine["tags"], genuine["content"]],
                                separators=(",", ":"), ensure_ascii=False)
        yield dict(genuine, created_at=created_at, id=hashlib.sha256(serialized.encode()).hexdigest(),
                   sig=genuine["sig"] if shift % 2 else os.urandom(64).hex())
