#!/bin/sh
# Runs the Rust binding's tests (cargo test on the workspace: pto-sys and pto,
# unit, integration and doc tests), the Rust quickstart, and a documentation
# build of both crates without libpto (DOCS_RS set, as on docs.rs).
# CARGO_TARGET_DIR keeps the build out of the source tree. The first run
# downloads the pkg-config crate from crates.io (pinned by Cargo.lock).
set -eu
cd "$(dirname "$0")"
cargo=${CARGO:-cargo}

echo "+ cargo test"
"$cargo" test --locked --no-fail-fast
echo "+ cargo run --example quickstart (examples/rust)"
"$cargo" run --locked --quiet -p pto --example quickstart
echo "+ DOCS_RS=1 cargo doc --no-deps (no libpto: PKG_CONFIG_PATH emptied)"
DOCS_RS=1 PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=/nonexistent RUSTDOCFLAGS="-D warnings" \
  "$cargo" doc --locked --no-deps -p pto-sys -p pto --target-dir "${CARGO_TARGET_DIR:-target}/docs-rs"
