"""A stand-in for yt-dlp in tests: records its arguments in $STUB_YTDLP_LOG and, with `-o -`, writes a
fake MP4 ($STUB_YTDLP_BYTES bytes, default 3 MiB: an ftyp box, then a byte pattern) to standard output
with progress lines on standard error. $STUB_YTDLP_SCENARIO: "ok", "fail" (an error, exit 1) or "slow"
(a chunk every 0.2 s, to be cancelled)."""
import os
import sys
import time

args = sys.argv[1:]
log = os.environ.get("STUB_YTDLP_LOG")
if log:
    with open(log, "a") as f:
        f.write("\n".join(args) + "\n\n")
scenario = os.environ.get("STUB_YTDLP_SCENARIO", "ok")
if scenario == "fail":
    sys.stderr.write("[youtube] dQw4w9WgXcQ: Downloading webpage\nERROR: [youtube] dQw4w9WgXcQ: Video unavailable\n")
    sys.exit(1)
total = int(os.environ.get("STUB_YTDLP_BYTES", str(3 << 20)))


def content(n):
    head = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"
    body = bytes((i * 7 + 3) % 251 for i in range(4096))
    out = bytearray(head)
    while len(out) < n:
        out += body
    return bytes(out[:n])


data = content(total)
chunk = 256 * 1024
for start in range(0, total, chunk):
    sys.stdout.buffer.write(data[start:start + chunk])
    sys.stdout.buffer.flush()
    done = min(total, start + chunk)
    sys.stderr.write("[download] %5.1f%% of %.2fMiB at 10.00MiB/s ETA 00:01\n" % (done * 100.0 / total, total / 1048576))
    sys.stderr.flush()
    if scenario == "slow":
        time.sleep(0.2)
sys.exit(0)
