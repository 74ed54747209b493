"""A stand-in for mpv in tests: records its arguments (one per line, then a blank line) in $STUB_MPV_LOG,
opens the IPC socket named by --input-ipc-server, answers the client's requests, and plays out
$STUB_MPV_SCENARIO on it: "ok" (loaded, then the end), "ytdl" (yt-dlp's hook fails: an error and an
end with an error), "quit" (closed by the user), "crash" (exits 3 without a word). `--vo=help` lists outputs. Given "-", it reads a saved copy from
standard input first and records its size and SHA-256."""
import json
import os
import socket
import sys
import time

args = sys.argv[1:]
if "--vo=help" in args:
    print("Available video outputs:\n  gpu\n  tct\n" + ("  kitty\n" if os.environ.get("STUB_MPV_KITTY") else ""))
    sys.exit(0)
log = os.environ.get("STUB_MPV_LOG")
if log:
    with open(log, "a") as f:
        f.write("\n".join(args) + "\n\n")
scenario = os.environ.get("STUB_MPV_SCENARIO", "ok")
if args and args[-1] == "-":
    # A saved copy through the pipe: what arrived is recorded, its size and digest.
    import hashlib
    received = sys.stdin.buffer.read()
    if log:
        with open(log, "a") as f:
            f.write("stdin %d %s\n\n" % (len(received), hashlib.sha256(received).hexdigest()))
if scenario == "crash":
    sys.exit(3)
path = next((a.split("=", 1)[1] for a in args if a.startswith("--input-ipc-server=")), None)
if path is None:
    sys.exit(2)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(1)
server.settimeout(10)
conn, _ = server.accept()
conn.settimeout(2)
try:
    conn.recv(4096)  # the client's requests
except socket.timeout:
    pass


def send(event):
    conn.sendall((json.dumps(event) + "\n").encode())
    time.sleep(0.05)


send({"event": "start-file", "playlist_entry_id": 1})
if scenario == "ytdl":
    send({"event": "log-message", "prefix": "ytdl_hook", "level": "error", "text": "ERROR: [generic] Unsupported URL: https://example.com/\n"})
    send({"event": "log-message", "prefix": "ytdl_hook", "level": "error", "text": "youtube-dl failed: unexpected error occurred\n"})
    send({"event": "end-file", "reason": "error", "file_error": "loading failed"})
    code = 2
else:
    send({"event": "property-change", "id": 1, "name": "media-title", "data": "A \x1b[2Jfilm"})
    send({"event": "file-loaded"})
    time.sleep(float(os.environ.get("STUB_MPV_SECONDS", "0.3")))
    send({"event": "end-file", "reason": "quit" if scenario == "quit" else "eof"})
    code = 0
conn.close()
server.close()
os.unlink(path)
sys.exit(code)
