#!/bin/sh
# Runs the Rust binding's tests (cargo test: unit, integration and doc tests)
# and the Rust quickstart. The crate has no dependencies, so cargo works
# offline; CARGO_TARGET_DIR keeps the build out of the source tree.
set -eu
cd "$(dirname "$0")"
cargo=${CARGO:-cargo}

echo "+ cargo test"
"$cargo" test --offline --locked --no-fail-fast
echo "+ cargo run --example quickstart (examples/rust)"
"$cargo" run --offline --locked --quiet --example quickstart
