#!/usr/bin/env python3
"""Static server for the e2e run and the bench: like `python3 -m http.server`, plus the CORS header
a sandboxed (origin "null") iframe needs to load the page's module script, plus the precompressed
NAME.br / NAME.gz beside a file when the request accepts that encoding (as nginx
brotli_static/gzip_static would), so the shipped compressed files are what the browser decodes.
Usage: server.py PORT DIR"""
import email.utils, functools, http.server, os, sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, *args):
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if os.path.isfile(path):
            accepted = {
                part.split(";", 1)[0].strip().lower()
                for part in self.headers.get("Accept-Encoding", "").split(",")
            }
            for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
                if encoding in accepted and os.path.isfile(path + suffix):
                    f = open(path + suffix, "rb")
                    stat = os.fstat(f.fileno())
                    self.send_response(200)
                    self.send_header("Content-Type", self.guess_type(path))
                    self.send_header("Content-Encoding", encoding)
                    self.send_header("Content-Length", str(stat.st_size))
                    self.send_header("Vary", "Accept-Encoding")
                    self.send_header("Last-Modified", email.utils.formatdate(stat.st_mtime, usegmt=True))
                    self.end_headers()
                    return f
        return super().send_head()


port, root = int(sys.argv[1]), sys.argv[2]
http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root)).serve_forever()
