#!/usr/bin/env python3
"""trunk post_build hook (Trunk.toml [[hooks]]): makes `trunk build --release` produce the page as
shipped. Runs in trunk's staging folder ($TRUNK_STAGING_DIR, moved to dist/ afterwards):
1. inserts public/prerender.html (the default answer as static HTML, `gpu-planner prerender`) at the
   start of <body>, then adds the Content-Security-Policy to index.html (scripts/csp.py; it
   hashes the prerender's inline script too);
2. release builds only: minifies the wasm-bindgen JS glue with terser (npm, package.json; trunk's
   own minifier gives up on its `export default`) and updates its integrity hash in index.html;
3. release builds only: writes precompressed NAME.gz (zopfli: a deflate stream any gzip client
   reads, ~4% smaller than gzip -9; Python's gzip -9 when zopfli is not installed) and NAME.br
   (brotli quality 11, Node's built-in zlib: Node is already needed for wasm-opt, so nothing
   extra to install) beside each asset (.wasm .js .css .html), for static hosts that serve them
   (nginx gzip_static/brotli_static, most CDNs);
0. splits the wasm (scripts/split.py): the code only some visitors need (the serving engine, an
   open card's derivations, the config.json reader) moves into chunks the page loads when first
   used, so a first visit downloads the rest only;
4. starts the download of the data file (page-data.jsonl, src/domain/page_data.rs) from a line of
   script in <head>, under the URL the wasm would fetch (`?v=` its FNV-1a hash as build.rs
   computes it): the file arrives in parallel with the wasm, and the wasm takes the promise
   (`window.gpPageData`) instead of starting a fetch of its own after it has compiled (15-20 ms
   later to the live ranking with a preload link, whose response the wasm still had to fetch).
One hook on purpose: trunk runs the hooks of a stage concurrently, and the compressed index.html
must be the one with the policy in it.
By hand: TRUNK_STAGING_DIR=dist TRUNK_PROFILE=release python3 scripts/postbuild.py"""
import base64, glob, gzip, hashlib, os, re, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csp import add_csp
from split import split_wasm

EXTENSIONS = (".wasm", ".js", ".css", ".html", ".json", ".jsonl")
DATA = "page-data.jsonl"


def fnv1a(data):
    """FNV-1a 64 (build.rs `fnv1a`): the data file's cache-busting tag."""
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def start_data_download(staging, html):
    """The data file's download, started first thing in <head> (before the wasm's preload link);
    exits when the file is missing (the page would show only its static answer). csp.py then puts
    the policy before it and allows the script by its hash."""
    path = os.path.join(staging, DATA)
    if not os.path.isfile(path):
        sys.exit(f"postbuild.py: {DATA} missing from the build (index.html copies public/{DATA})")
    url = f"{DATA}?v={fnv1a(open(path, 'rb').read()):016x}"
    if url in html:
        return html
    # Resolves to the text or to an Error, never rejects: a rejection nobody has awaited yet (the
    # wasm is still loading) would be reported as an uncaught error.
    link = (f'<script>window.gpPageData=fetch("{url}").then(r=>r.ok?r.text():'
            'Error("HTTP "+r.status+" "+r.statusText)).catch(e=>e)</script>')
    found = re.search(r'<meta charset="?utf-8"?\s*/?>', html, flags=re.I)
    if not found:
        sys.exit("postbuild.py: no <meta charset=utf-8> in index.html; the data file would load late")
    return html[: found.end()] + link + html[found.end() :]
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


def minify_js(staging, index):
    """terser on the JS glue (module mode keeps its exports); the modulepreload link's
    Subresource Integrity hash must then be the minified file's."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    terser = os.path.join(root, "node_modules", ".bin", "terser")
    if not os.path.exists(terser):
        print("postbuild.py: terser not installed (npm ci); JS glue left unminified")
        return
    html = open(index, encoding="utf-8").read()
    for path in glob.glob(os.path.join(staging, "*.js")):
        subprocess.run([terser, path, "--module", "--compress", "--mangle", "-o", path], check=True)
        digest = base64.b64encode(hashlib.sha384(open(path, "rb").read()).digest()).decode()
        name = re.escape(os.path.basename(path))
        html, n = re.subn(r'(href="?\./' + name + r'"?[^>]*?integrity="?)sha384-[A-Za-z0-9+/=]+', r"\g<1>sha384-" + digest, html)
        if n == 0 and "integrity" in html and os.path.basename(path) in html:
            sys.exit(f"postbuild.py: no integrity attribute found for {path}; the page would refuse the script")
    open(index, "w", encoding="utf-8").write(html)


def cors_stylesheet(html):
    """`crossorigin` on the stylesheet link, as trunk already puts on the script and the wasm: in a
    sandboxed iframe (no allow-same-origin) the page's origin is opaque, every file is a
    cross-origin load, and a no-cors response cannot be checked against its integrity hash, so
    Chromium refused the CSS and the embedded page showed unstyled."""
    return re.sub(r'<link\b(?![^>]*\bcrossorigin\b)([^>]*\brel="?stylesheet"?[^>]*)>', r"<link crossorigin\1>", html)


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
    index = os.path.join(staging, "index.html")
    prerender = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public", "prerender.html")
    split_wasm(staging, index, os.environ.get("TRUNK_PROFILE", "release"))
    html = open(index, encoding="utf-8").read()
    if 'id="prerender"' not in html:
        block = open(prerender, encoding="utf-8").read()
        if "<body>" not in html:
            sys.exit("postbuild.py: <body> not found in index.html; the prerendered answer would be missing")
        html = html.replace("<body>", "<body>\n" + block, 1)
    html = start_data_download(staging, html)
    html = cors_stylesheet(html)
    open(index, "w", encoding="utf-8").write(html)
    if os.environ.get("TRUNK_PROFILE", "release") == "release":
        minify_js(staging, index)
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
