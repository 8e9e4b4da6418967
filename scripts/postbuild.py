#!/usr/bin/env python3
"""trunk post_build hook (Trunk.toml [[hooks]]): makes `trunk build --release` produce the page as
shipped. Runs in trunk's staging folder ($TRUNK_STAGING_DIR, moved to dist/ afterwards):
1. inserts public/prerender.html (the default answer as static HTML, `gpu-planner prerender`) at the
   start of <body>, then adds the Content-Security-Policy to index.html (scripts/csp.py; it
   hashes the prerender's inline script too);
2. release builds only: writes precompressed NAME.gz (zopfli: a deflate stream any gzip client
   reads, ~4% smaller than gzip -9; Python's gzip -9 when zopfli is not installed) and NAME.br
   (brotli quality 11, Node's built-in zlib: Node is already needed for wasm-opt, so nothing
   extra to install) beside each asset (.wasm .js .css .html), for static hosts that serve them
   (nginx gzip_static/brotli_static, most CDNs).
One hook on purpose: trunk runs the hooks of a stage concurrently, and the compressed index.html
must be the one with the policy in it.
By hand: TRUNK_STAGING_DIR=dist TRUNK_PROFILE=release python3 scripts/postbuild.py"""
import gzip, os, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csp import add_csp

EXTENSIONS = (".wasm", ".js", ".css", ".html")
# Reads each named file and writes FILE.br next to it; exits non-zero on any failure.
BROTLI_JS = r"""
const fs = require('fs'), zlib = require('zlib');
for (const f of process.argv.slice(1)) {
  const data = fs.readFileSync(f);
  fs.writeFileSync(f + '.br', zlib.brotliCompressSync(data, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
    [zlib.constants.BROTLI_PARAM_MODE]: f.endsWith('.wasm') ? zlib.constants.BROTLI_MODE_GENERIC
                                                            : zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
}
"""


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
    index = os.path.join(staging, "index.html")
    prerender = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public", "prerender.html")
    html = open(index, encoding="utf-8").read()
    if 'id="prerender"' not in html:
        block = open(prerender, encoding="utf-8").read()
        if "<body>" not in html:
            sys.exit("postbuild.py: <body> not found in index.html; the prerendered answer would be missing")
        html = html.replace("<body>", "<body>\n" + block, 1)
        open(index, "w", encoding="utf-8").write(html)
    add_csp(index)
    if os.environ.get("TRUNK_PROFILE", "release") != "release":
        return
    assets = []
    for root, _, names in os.walk(staging):
        assets += [os.path.join(root, n) for n in sorted(names) if n.endswith(EXTENSIONS)]
    for path in assets:
        if shutil.which("zopfli"):
            # zopfli -c writes no file name and a zero mtime: the same input gives the same bytes.
            with open(path + ".gz", "wb") as out:
                subprocess.run(["zopfli", "-c", path], stdout=out, check=True)
            continue
        with open(path, "rb") as src, open(path + ".gz", "wb") as raw:
            # mtime=0 and no file name: the same input gives the same bytes.
            with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
                gz.write(src.read())
    subprocess.run(["node", "-e", BROTLI_JS, *assets], check=True)
    print(f"precompressed {len(assets)} files (.gz, .br) in {staging}")


if __name__ == "__main__":
    main()
