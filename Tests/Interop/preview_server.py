"""Web pages for link-preview tests, on 127.0.0.1 (port printed on stdout): titles in every form, redirects,
a page larger than the fetch limit, a slow page, an image, an error. With a file argument, every requested
path is appended to that file (a test checks what was, and was not, fetched). With a second argument, a
directory: /files/NAME serves its file NAME (images a test made), and /page/NAME a page naming it as og:image."""
import http.server
import os
import struct
import sys
import time
import zlib


def png(width, height, rows=None):
    """An RGB PNG; `rows` None gives a red left half and a blue right half."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    if rows is None:
        row = b"".join(b"\xff\x00\x00" if x < width // 2 else b"\x00\x00\xff" for x in range(width))
        rows = [row] * height
    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

PAGES = {
    "/og": ("text/html; charset=utf-8",
            b'<html><head><title>Fallback title</title>\n'
            b'<meta content="Caf&eacute; &amp; Films &#8212; \x1b[2Jthe &quot;best&quot; &#x263A;" property="og:title">\n'
            b"<meta property='og:site_name' content='Example Site'></head><body>hi</body></html>"),
    "/title-only": ("text/html", b"<!doctype html><HTML><HEAD><script>if (a<b) { x = '<title>no</title>' }</script>"
                                 b"<TITLE>\n  Plain   title\t</TITLE></HEAD></HTML>"),
    "/latin1": ("text/html; charset=iso-8859-1", b"<title>Caf\xe9 cr\xe8me</title>"),
    "/untitled": ("text/html", b"<html><body>no title here</body></html>"),
    "/image": ("image/png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64),
    "/pdf": ("application/pdf", b"%PDF-1.4\n"),
    # Thumbnails (issue 29): a page naming its image relatively, the image, one served as the wrong type,
    # a decompression bomb's header, and an image over the byte limit.
    "/with-image": ("text/html", b'<title>Has a picture</title><meta property="og:image" content="/pic.png">'),
    "/pic.png": ("image/png", png(8, 4)),
    "/pic-as-octets": ("application/octet-stream", png(8, 4)),
    "/bomb.png": ("image/png", b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 60000, 60000, 8, 6, 0, 0, 0)
                  + struct.pack(">I", zlib.crc32(b"IHDR" + struct.pack(">IIBBBBB", 60000, 60000, 8, 6, 0, 0, 0)) & 0xFFFFFFFF)),
    "/huge.png": ("image/png", b"\x89PNG\r\n\x1a\n" + b"\0" * (9 << 20)),
}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, ctype, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path
        if len(sys.argv) > 1:
            with open(sys.argv[1], "a") as log:
                log.write(path + "\n")
        if path in PAGES:
            ctype, body = PAGES[path]
            return self.send(200, ctype, body)
        if len(sys.argv) > 2 and (path.startswith("/files/") or path.startswith("/page/")):
            name = os.path.basename(path)
            if path.startswith("/page/"):
                return self.send(200, "text/html", b"<title>Picture " + name.encode() + b'</title><meta property="og:image" content="/files/' + name.encode() + b'">')
            try:
                with open(os.path.join(sys.argv[2], name), "rb") as f:
                    body = f.read()
            except OSError:
                return self.send(404, "text/html", b"<title>Not found</title>")
            ctype = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}.get(name.rsplit(".", 1)[-1], "application/octet-stream")
            return self.send(200, ctype, body)
        if path == "/redirect":
            return self.send(302, "text/plain", b"", [("Location", "/og")])
        if path.startswith("/slow-chain/"):
            # Each hop answers after 2 s, four hops: whole, it takes longer than one fetch's deadline.
            left = int(path.rsplit("/", 1)[1])
            time.sleep(2)
            return self.send(302, "text/plain", b"", [("Location", "/slow-chain/%d" % (left - 1) if left > 1 else "/og")])
        if path == "/loop":
            return self.send(301, "text/plain", b"", [("Location", "/loop")])
        if path == "/big":
            body = b"<html><head><title>Big page</title></head><body>" + b"x" * (3 << 20) + b"</body></html>"
            return self.send(200, "text/html", body)
        if path == "/slow":
            time.sleep(30)
            return self.send(200, "text/html", b"<title>too late</title>")
        return self.send(404, "text/html", b"<title>Not found</title>")


# PREVIEW_HOST: another loopback address (127.0.0.2), for a host of its own beside the test relays.
server = http.server.ThreadingHTTPServer((os.environ.get("PREVIEW_HOST", "127.0.0.1"), 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
