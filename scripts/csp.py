#!/usr/bin/env python3
"""Adds a Content-Security-Policy to the built page: only its own origin, plus the sha256 of
trunk's inline module loader (the one inline script the page needs) and 'wasm-unsafe-eval' for
WebAssembly. Inline style *attributes* (Leptos bar widths) are allowed; style elements are not.
Idempotent (a policy already there is replaced). `trunk build` runs it through
scripts/postbuild.py (a post_build hook in Trunk.toml); by hand: scripts/csp.py dist/index.html"""
import base64, hashlib, re, sys


def add_csp(path):
    html = open(path, encoding="utf-8").read()
    html = re.sub(r'\s*<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"
        for body in re.findall(r"<script[^>]*>(.*?)</script>", html, flags=re.S)
        if body.strip()
    ]
    policy = "; ".join([
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval' " + " ".join(hashes),
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'none'",
    ])
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}" />'
    # The charset tag as written, or as trunk's HTML minifier leaves it (`<meta charset=utf-8>`).
    found = re.search(r'<meta charset="?utf-8"?\s*/?>', html, flags=re.I)
    if not found:
        sys.exit(f"csp.py: no <meta charset=utf-8> in {path}; the policy would be missing")
    html = html[: found.end()] + meta + html[found.end() :]
    open(path, "w", encoding="utf-8").write(html)
    print(f"CSP added to {path} ({len(hashes)} inline script hash)")


if __name__ == "__main__":
    add_csp(sys.argv[1])
