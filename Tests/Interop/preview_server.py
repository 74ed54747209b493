"""Web pages for link-preview tests, on 127.0.0.1 (port printed on stdout): titles in every form, redirects,
a page larger than the fetch limit, a slow page, an image, an error. With a file argument, every requested
path is appended to that file (a test checks what was, and was not, fetched)."""
import http.server
import sys
import time

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
        if path == "/redirect":
            return self.send(302, "text/plain", b"", [("Location", "/og")])
        if path == "/loop":
            return self.send(301, "text/plain", b"", [("Location", "/loop")])
        if path == "/big":
            body = b"<html><head><title>Big page</title></head><body>" + b"x" * (3 << 20) + b"</body></html>"
            return self.send(200, "text/html", body)
        if path == "/slow":
            time.sleep(30)
            return self.send(200, "text/html", b"<title>too late</title>")
        return self.send(404, "text/html", b"<title>Not found</title>")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
