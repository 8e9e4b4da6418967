#!/usr/bin/env python3
"""Static server for the e2e run: like `python3 -m http.server`, plus the CORS header a sandboxed
(origin "null") iframe needs to load the page's module script. Usage: server.py PORT DIR"""
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()
    def log_message(self, *args):
        pass

port, root = int(sys.argv[1]), sys.argv[2]
http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root)).serve_forever()
