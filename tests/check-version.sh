#!/usr/bin/env bash
# Fails when a copy of the project version differs from meson.build's: every
# file the release path writes a version into (the wheel's and pkg-config's
# come from meson.build itself). Usage: check-version.sh VERSION SOURCE_ROOT
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
# The generated FFI layers carry the header's macros.
expect bindings/go/internal/ptoc/ptoc.go \
  "$(sed -n 's/^const PTO_VERSION_STRING string = "\(.*\)"$/\1/p' "$root/bindings/go/internal/ptoc/ptoc.go")" "$version"
expect bindings/rust/pto-sys/src/bindings.rs \
  "$(grep -o 'PTO_VERSION_STRING : & \[u8 ; [0-9]*usize\] = b"[^"\\]*' "$root/bindings/rust/pto-sys/src/bindings.rs" | sed 's/.*b"//')" "$version"
# pto-sys asks pkg-config for at least this libpto.
expect bindings/rust/pto-sys/build.rs \
  "$(sed -n 's/.*atleast_version("\(.*\)").*/\1/p' "$root/bindings/rust/pto-sys/build.rs")" "$version"
for crate in pto pto-sys; do
  expect "bindings/rust/Cargo.lock ($crate)" \
    "$(awk -v c="$crate" '$0 == "name = \"" c "\"" {getline; gsub(/^version = "|"$/, ""); print}' "$root/bindings/rust/Cargo.lock")" "$version"
done
# What users copy: the README's coordinates and the Debian changelog's top entry.
expect "README.md (go get)" "$(sed -n 's/^go get github.com\/libpto\/pto-go@v\(.*\)$/\1/p' "$root/README.md")" "$version"
expect "README.md (Maven dependency)" \
  "$(sed -n 's:.*<artifactId>pto</artifactId><version>\(.*\)</version>.*:\1:p' "$root/README.md" | head -n1)" "$version"
expect "README.md (Cargo)" "$(sed -n "s/^echo 'pto = \"\(.*\)\"' >> Cargo.toml$/\1/p" "$root/README.md")" "$major.$minor"
# The Install table and docs/install.md: package file names and coordinates,
# each occurrence.
for doc in README.md docs/install.md; do
  for pattern in 'libpto0_[0-9.]*-' 'libpto-dev_[0-9.]*-' 'pto-tools_[0-9.]*-' 'libpto-[0-9.]*-cp' \
    'libpto-[0-9.]*\.tar\.gz' 'pto-go@v[0-9.]*' 'org\.libpto:pto:[0-9.]*' 'pto-[0-9.]*\.jar' 'pto-[0-9.]*\.crate' \
    'pto-sys-[0-9.]*\.crate'; do
    while read -r found; do
      expect "$doc ($pattern)" "$(sed -E 's/^(libpto0_|libpto-dev_|pto-tools_|libpto-|pto-go@v|org\.libpto:pto:|pto-sys-|pto-)//
        s/(-|-cp|\.tar\.gz|\.jar|\.crate)$//' <<<"$found")" "$version"
    done < <(grep -o -- "$pattern" "$root/$doc" | sort -u || true)
  done
done
expect bindings/java/README.md \
  "$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/bindings/java/README.md" | head -n1)" "$version"
expect bindings/rust/pto/README.md "$(sed -n 's/^pto = "\(.*\)"$/\1/p' "$root/bindings/rust/pto/README.md")" "$major.$minor"
expect bindings/python/tests/test_api.py \
  "$(sed -n 's/.*pto.__version__ == "\(.*\)"$/\1/p' "$root/bindings/python/tests/test_api.py")" "$version"
# The Debian package's version: upstream version, then "-" and the Debian revision.
expect debian/changelog "$(sed -n '1s/^libpto (\(.*\)-[^-]*) .*/\1/p' "$root/debian/changelog")" "$version"
exit $status
