#!/usr/bin/env python3
"""Writes one version of a Go module into a module proxy directory, the
layout GOPROXY=file://DIR serves (the GOPROXY protocol's files):

    DIR/MODULE/@v/list, VERSION.info, VERSION.mod, VERSION.zip

    go_module_proxy.py DIR MODULE VERSION MODULE_ROOT TIME < FILES

FILES lists the module's files, one path per line relative to MODULE_ROOT
(e.g. `git ls-files`); TIME is the version's RFC 3339 time. The zip holds
MODULE@VERSION/PATH for each file, as `go mod download` expects.
"""
import json
import os
import sys
import zipfile


def escape(path):
    # Module paths escape upper case as !lower in proxy URLs and files.
    return "".join("!" + c.lower() if c.isupper() else c for c in path)


def main():
    out, module, version, root, time = sys.argv[1:6]
    files = sorted(l.strip() for l in sys.stdin if l.strip())
    if "go.mod" not in files:
        sys.exit("go_module_proxy.py: no go.mod among the files")
    vdir = os.path.join(out, escape(module), "@v")
    os.makedirs(vdir, exist_ok=True)
    with open(os.path.join(root, "go.mod"), "rb") as f:
        gomod = f.read()
    with open(os.path.join(vdir, version + ".mod"), "wb") as f:
        f.write(gomod)
    with open(os.path.join(vdir, version + ".info"), "w") as f:
        json.dump({"Version": version, "Time": time}, f)
    with zipfile.ZipFile(os.path.join(vdir, version + ".zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for rel in files:
            info = zipfile.ZipInfo(f"{module}@{version}/{rel}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join(root, rel), "rb") as f:
                z.writestr(info, f.read())
    versions = set()
    listing = os.path.join(vdir, "list")
    if os.path.exists(listing):
        with open(listing) as f:
            versions = {l.strip() for l in f if l.strip()}
    versions.add(version)
    with open(listing, "w") as f:
        f.write("\n".join(sorted(versions)) + "\n")
    print(f"go proxy: {module} {version} ({len(files)} files)")


if __name__ == "__main__":
    main()
