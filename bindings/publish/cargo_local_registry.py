#!/usr/bin/env python3
"""Builds a cargo local registry (the `local-registry` source kind) from
.crate files: each crate is copied to REGISTRY/NAME-VERSION.crate and gets an
index entry (REGISTRY/index/..., crates.io's index layout) made from the
normalized Cargo.toml inside it.

    cargo_local_registry.py REGISTRY CRATE...

A project uses the registry instead of crates.io with, in .cargo/config.toml:

    [source.crates-io]
    replace-with = "local"
    [source.local]
    local-registry = "REGISTRY"
"""
import hashlib
import json
import os
import shutil
import sys
import tarfile
import tomllib


def index_path(name):
    n = name.lower()
    if len(n) <= 2:
        return os.path.join(str(len(n)), n)
    if len(n) == 3:
        return os.path.join("3", n[0], n)
    return os.path.join(n[:2], n[2:4], n)


def dep_entries(manifest):
    kinds = [("dependencies", "normal"), ("build-dependencies", "build"), ("dev-dependencies", "dev")]
    sections = [(None, manifest)]
    for target, table in manifest.get("target", {}).items():
        sections.append((target, table))
    deps = []
    for target, table in sections:
        for key, kind in kinds:
            for name, spec in table.get(key, {}).items():
                if isinstance(spec, str):
                    spec = {"version": spec}
                entry = {
                    "name": name,
                    "req": spec.get("version", "*"),
                    "features": spec.get("features", []),
                    "optional": spec.get("optional", False),
                    "default_features": spec.get("default-features", True),
                    "target": target,
                    "kind": kind,
                }
                if "package" in spec:  # renamed: name is the new name
                    entry["package"] = spec["package"]
                deps.append(entry)
    return deps


def main():
    registry, crates = sys.argv[1], sys.argv[2:]
    os.makedirs(os.path.join(registry, "index"), exist_ok=True)
    for crate in crates:
        with tarfile.open(crate, "r:gz") as tar:
            member = next(m for m in tar.getmembers() if m.name.count("/") == 1 and m.name.endswith("/Cargo.toml"))
            manifest = tomllib.load(tar.extractfile(member))
        package = manifest["package"]
        name, version = package["name"], package["version"]
        with open(crate, "rb") as f:
            cksum = hashlib.sha256(f.read()).hexdigest()
        features = manifest.get("features", {})
        # Features naming "dep:x" or "x?/y" need the v2 index format.
        new_syntax = any("dep:" in v or "?/" in v for vs in features.values() for v in vs)
        entry = {
            "name": name,
            "vers": version,
            "deps": dep_entries(manifest),
            "cksum": cksum,
            "features": {} if new_syntax else features,
            "yanked": False,
            "links": package.get("links"),
        }
        if new_syntax:
            entry["features2"] = features
            entry["v"] = 2
        if "rust-version" in package:
            entry["rust_version"] = package["rust-version"]
        shutil.copyfile(crate, os.path.join(registry, f"{name}-{version}.crate"))
        path = os.path.join(registry, "index", index_path(name))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lines = []
        if os.path.exists(path):
            with open(path) as f:
                lines = [l for l in f.read().splitlines() if json.loads(l)["vers"] != version]
        lines.append(json.dumps(entry, separators=(",", ":")))
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"cargo registry: {name} {version}")


if __name__ == "__main__":
    main()
