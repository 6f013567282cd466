#!/usr/bin/env bash
# Fails when a copy of the project version differs from meson.build's.
# Usage: check-version.sh VERSION SOURCE_ROOT
set -euo pipefail
version=$1
root=$2
IFS=. read -r major minor patch <<<"$version"
status=0
expect() {  # file, what was found, what meson.build says
  if [ "$2" != "$3" ]; then
    echo "$1: version '$2' differs from meson.build's '$3'"
    status=1
  else
    echo "$1: $2"
  fi
}
header=$root/include/pto_c.h
macro() { sed -n "s/^#define $1 \\(.*\\)$/\\1/p" "$header"; }
expect include/pto_c.h "$(macro PTO_VERSION_MAJOR).$(macro PTO_VERSION_MINOR).$(macro PTO_VERSION_PATCH)" \
  "$major.$minor.$patch"
expect include/pto_c.h "$(macro PTO_VERSION_STRING)" "\"$version\""
# The project's own <version>: the first one at the top level of <project>.
expect bindings/java/pom.xml \
  "$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/bindings/java/pom.xml" | head -n1)" "$version"
for crate in pto-sys pto; do
  expect "bindings/rust/$crate/Cargo.toml" \
    "$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/bindings/rust/$crate/Cargo.toml" | head -n1)" "$version"
done
# pto depends on exactly its own version of pto-sys.
expect "bindings/rust/pto/Cargo.toml (pto-sys dependency)" \
  "$(sed -n 's/^pto-sys = { version = "=\([^"]*\)".*/\1/p' "$root/bindings/rust/pto/Cargo.toml")" "$version"
# The Go module's version is the git tag a release adds (bindings/publish-local.sh
# uses v$version); the example requires that version.
expect examples/go/go.mod \
  "$(sed -n 's/^require github.com\/libpto\/pto-go v\(.*\)$/\1/p' "$root/examples/go/go.mod")" "$version"
exit $status
