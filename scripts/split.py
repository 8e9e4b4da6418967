"""Splits the page's wasm into the part every visit loads and chunks loaded on first use
(`#[wasm_split]` functions: src/web/lazy.rs). trunk builds, binds and optimises one module; the
split has to happen between the compiler and wasm-bindgen, so this step redoes trunk's last two
on the compiler's output:

1. `wasm-split-cli` (crate wasm_split_cli_support, installed by scripts/setup.sh) cuts the
   compiler's wasm (linked with --emit-relocs, .cargo/config.toml) into the main module, one
   module per split point and `__wasm_split.js`, the loader;
2. `wasm-bindgen --keep-lld-exports` binds the main module under trunk's file names (the loader
   needs the function table and the stack pointer the linker exports);
3. release builds: `wasm-opt` on every module, for size on the main one (the options trunk used),
   for speed on the chunks (they are not part of a first visit);
4. every chunk and the loader get a content hash in their names (a browser never pairs a new
   page with an old chunk), and index.html's integrity hash of the main wasm is the new file's.

Called by scripts/postbuild.py; by hand: python3 scripts/split.py dist [release|debug]."""
import base64, glob, hashlib, json, os, re, shutil, subprocess, sys, tempfile

BIN = "gpu-planner-web"
# The wasm-opt options trunk used (index.html before the split) and the features the page's
# browsers have had since 2021 (wasm-bindgen's output needs them).
FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
            "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"]
WASM_OPT = ["--low-memory-unused", "-Oz", *FEATURES]
# Chunks are not part of a first visit's transfer: optimised for speed. The serving chunk's plan
# after an edit in the page (bench/plan-in-page.mjs, Qwen2.5-72B × 100 users, medians of 15,
# session 36): -O3 72.4 and 69.8 ms against -Oz 81.8 and 79.6 in one run; 99.5 and 111.0 against
# 103.8 and 102.2 in a later, noisier one. Its gzip is no larger (33,670 against 34,000 B).
CHUNK_OPT = ["--low-memory-unused", "-O3", *FEATURES]


def fail(msg):
    sys.exit(f"split.py: {msg}")


def tool(name):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    local = os.path.join(root, "node_modules", ".bin", name)
    found = local if os.path.exists(local) else shutil.which(name)
    if not found:
        fail(f"{name} not found (scripts/setup.sh installs it)")
    return found


def compiled_wasm(profile):
    meta = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
                          check=True, capture_output=True, text=True)
    target = json.loads(meta.stdout)["target_directory"]
    path = os.path.join(target, "wasm32-unknown-unknown", "release" if profile == "release" else "debug", BIN + ".wasm")
    if not os.path.isfile(path):
        fail(f"{path} missing: trunk's cargo build should have written it")
    return path


def short_hash(data):
    return hashlib.sha256(data).hexdigest()[:16]


def split_wasm(staging, index, profile):
    js = [p for p in glob.glob(os.path.join(staging, BIN + "-*.js")) if not os.path.basename(p).startswith("__")]
    if len(js) != 1:
        fail(f"expected one {BIN}-<hash>.js in {staging}, found {len(js)}")
    stem = os.path.basename(js[0])[: -len(".js")]
    with tempfile.TemporaryDirectory() as tmp:
        cut, bound = os.path.join(tmp, "cut"), os.path.join(tmp, "bound")
        subprocess.run([tool("wasm-split-cli"), compiled_wasm(profile), cut, "--out-name", stem], check=True)
        subprocess.run([tool("wasm-bindgen"), "--target", "web", "--no-typescript", "--keep-lld-exports",
                        "--out-dir", bound, "--out-name", stem, os.path.join(cut, stem + ".wasm")], check=True)
        loader = open(os.path.join(cut, "__wasm_split.js"), encoding="utf-8").read()
        # split_<point>.wasm per split point, chunk_<n>.wasm for code two split points share.
        chunks = sorted(p for p in glob.glob(os.path.join(cut, "*.wasm")) if os.path.basename(p) != stem + ".wasm")
        if not chunks:
            fail("no split points found: the page would load nothing lazily (feature `split` off?)")
        for chunk in chunks:
            name = os.path.basename(chunk)
            out = os.path.join(tmp, name)
            optimise(chunk, out, profile, CHUNK_OPT)
            hashed = f"{name[:-len('.wasm')]}-{short_hash(open(out, 'rb').read())}.wasm"
            if name.startswith("chunk_"):
                hashed = "split_" + hashed
            shutil.copy(out, os.path.join(staging, hashed))
            if f'"./{name}"' not in loader:
                fail(f"{name} not named in __wasm_split.js")
            loader = loader.replace(f'"./{name}"', f'"./{hashed}"')
        loader_name = f"__wasm_split-{short_hash(loader.encode())}.js"
        open(os.path.join(staging, loader_name), "w", encoding="utf-8").write(loader)
        glue = open(os.path.join(bound, stem + ".js"), encoding="utf-8").read()
        # Only the module specifier: the wasm's import object keeps the module name it was linked with.
        glue, n = re.subn(r'(\bfrom\s*)"\./__wasm_split\.js"', rf'\g<1>"./{loader_name}"', glue)
        if n == 0:
            fail("the bound JS does not import __wasm_split.js")
        open(js[0], "w", encoding="utf-8").write(glue)
        optimise(os.path.join(bound, stem + "_bg.wasm"), os.path.join(staging, stem + "_bg.wasm"), profile, WASM_OPT)
    set_integrity(index, stem + "_bg.wasm", open(os.path.join(staging, stem + "_bg.wasm"), "rb").read())
    preload_loader(index, stem + ".js", loader_name, loader.encode())
    print(f"split {BIN}: main + {len(chunks)} chunks in {staging}")


def optimise(src, dst, profile, options):
    if profile == "release":
        subprocess.run([tool("wasm-opt"), *options, src, "-o", dst], check=True)
    else:
        shutil.copy(src, dst)


def preload_loader(index, glue, loader, data):
    """The glue imports the loader: without a preload the browser would only ask for it once the
    glue has arrived and been parsed, one more round trip before the wasm can start."""
    html = open(index, encoding="utf-8").read()
    digest = base64.b64encode(hashlib.sha384(data).digest()).decode()
    found = re.search(r'<link[^>]*href="?\./' + re.escape(glue) + r'"?[^>]*>', html)
    if not found:
        fail(f"no link to {glue} in index.html to put the loader's preload beside")
    link = f'<link rel="modulepreload" href="./{loader}" crossorigin="anonymous" integrity="sha384-{digest}">'
    open(index, "w", encoding="utf-8").write(html[: found.end()] + link + html[found.end() :])


def set_integrity(index, name, data):
    """The preload link's Subresource Integrity hash, now the new file's."""
    html = open(index, encoding="utf-8").read()
    digest = base64.b64encode(hashlib.sha384(data).digest()).decode()
    html, n = re.subn(r'(href="?\./' + re.escape(name) + r'"?[^>]*?integrity="?)sha384-[A-Za-z0-9+/=]+', r"\g<1>sha384-" + digest, html)
    if n == 0 and "integrity" in html:
        fail(f"no integrity attribute found for {name}; the browser would refuse the wasm")
    open(index, "w", encoding="utf-8").write(html)


if __name__ == "__main__":
    d = sys.argv[1] if len(sys.argv) > 1 else "dist"
    split_wasm(d, os.path.join(d, "index.html"), sys.argv[2] if len(sys.argv) > 2 else "release")
