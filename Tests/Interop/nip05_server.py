"""NIP-05 documents for the verification tests, on 127.0.0.1 (the port is the first argument). The linkstr
under test asks LINKSTR_NIP05_ORIGIN=http://127.0.0.1:PORT for /.well-known/nostr.json?name=NAME&domain=D.
The arguments after the port map names to keys (`alice=HEX`); what each name gets:
  a mapped name   its key, as NIP-05 says ("names": {name: key}), with a relay list
  wrong-NAME      the names map NAME to another key (the document does not vouch for them)
  huge-NAME       a correct document padded past 64 KiB (too large to be read)
  slow-NAME       a correct document after 12 s (past the fetch's deadline)
  bad-NAME        malformed JSON
Every request is appended to the file named by NIP05_LOG, if set (the test counts the checks)."""
import http.server
import json
import os
import sys
import time
import urllib.parse

PORT = int(sys.argv[1])
KEYS = dict(arg.split("=", 1) for arg in sys.argv[2:])
LOG = os.environ.get("NIP05_LOG")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        name = urllib.parse.parse_qs(url.query).get("name", [""])[0]
        if LOG:
            with open(LOG, "a") as f:
                f.write(name + "\n")
        if url.path != "/.well-known/nostr.json":
            return self.answer(404, b"not here")
        kind, _, base = name.partition("-") if "-" in name else ("", "", name)
        key = KEYS.get(base)
        if key is None:
            return self.answer(200, b'{"names":{}}')
        if kind == "wrong":
            body = json.dumps({"names": {name: "f" * 64}}).encode()
        elif kind == "bad":
            body = b'{"names": {"' + name.encode() + b'": '
        else:
            body = json.dumps({"names": {name: key}, "relays": {key: ["wss://relay.example"]}}).encode()
            if kind == "huge":
                body = body[:-1] + b', "padding": "' + b"x" * (100 * 1024) + b'"}'
            if kind == "slow":
                time.sleep(12)
        self.answer(200, body)

    def answer(self, status, body):
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
