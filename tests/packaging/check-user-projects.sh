#!/usr/bin/env bash
# Builds and runs one small user project per binding (tests/packaging/user)
# from the output of bindings/publish-local.sh alone, in clean directories,
# as a user of the registries would:
#   Go:    go get MODULE@VERSION through GOPROXY=file://OUTDIR/go, with a
#          fresh module cache;
#   Java:  a Maven project depending on GROUP:ARTIFACT:VERSION from
#          file://OUTDIR/maven, with a local repository that lacks it;
#   Rust:  a cargo project depending on pto, with crates.io replaced by the
#          local registry OUTDIR/cargo, --offline, with a fresh CARGO_HOME.
# swig, bindgen, clang and libclang are kept out of reach (PATH is a
# directory of links to every other program on it), so none can be used.
# libpto must be installed and found the way the README says: PKG_CONFIG_PATH
# (Go, Rust) and LD_LIBRARY_PATH (to run them); the Java jar brings its own.
#
#   check-user-projects.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$1" && pwd)
# shellcheck disable=SC1091
. "$out/coordinates.env"
scratch=$(mktemp -d)
# The Go module cache is read-only: make it writable to remove it.
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

# ------------------------------------------------ a PATH without generators
shim=$scratch/bin
mkdir -p "$shim"
IFS=: read -r -a path_dirs <<< "$PATH"
for dir in "${path_dirs[@]}"; do
  [ -d "$dir" ] || continue
  for f in "$dir"/*; do
    name=${f##*/}
    case "$name" in
      swig | swig[0-9]* | bindgen | clang | clang-* | clang++* | llvm-* | libclang*) continue ;;
    esac
    [ -x "$f" ] && [ ! -e "$shim/$name" ] && ln -s "$f" "$shim/$name"
  done
done
export PATH=$shim
export LIBCLANG_PATH=/nonexistent-libclang
unset CARGO_TARGET_DIR
for tool in swig bindgen clang; do
  if command -v "$tool" > /dev/null; then
    echo "$tool is still on PATH" >&2
    exit 1
  fi
done
echo "swig, bindgen and clang are not on PATH; PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}"
pkg-config --modversion pto

# ------------------------------------------------------------------------ Go
echo "=== Go: $GO_MODULE@$GO_VERSION from file://$out/go"
mkdir "$scratch/go-user"
cp "$here/user/go/main.go" "$scratch/go-user/"
(
  cd "$scratch/go-user"
  export GOPROXY=file://$out/go GONOSUMDB=$GO_MODULE GOFLAGS=-mod=mod GOTOOLCHAIN=local
  export GOMODCACHE=$scratch/gomodcache
  go mod init example.com/pto-user
  go get "$GO_MODULE@$GO_VERSION"
  go build -o pto-user .
  ./pto-user
)

# ---------------------------------------------------------------------- Java
echo "=== Java: $MAVEN_GROUP:$MAVEN_ARTIFACT:$MAVEN_VERSION from file://$out/maven"
cp -R "$here/user/java" "$scratch/java-user"
sed -i -e "s|@MAVEN_REPO_URL@|file://$out/maven|" -e "s|@MAVEN_GROUP@|$MAVEN_GROUP|" \
  -e "s|@MAVEN_ARTIFACT@|$MAVEN_ARTIFACT|" -e "s|@MAVEN_VERSION@|$MAVEN_VERSION|" \
  "$scratch/java-user/pom.xml"
# Maven plugins come from the user's local repository (or Maven Central);
# the binding must come from OUTDIR, so it is absent from this copy.
m2=$scratch/m2
mkdir -p "$m2"
if [ -d "$HOME/.m2/repository" ]; then
  # A copy, not hard links: Maven may rewrite its bookkeeping files in place.
  cp -a "$HOME/.m2/repository/." "$m2/"
fi
rm -rf "$m2/${MAVEN_GROUP//.//}/$MAVEN_ARTIFACT"
(
  cd "$scratch/java-user"
  # The jar's bundled libpto is used: no LD_LIBRARY_PATH needed.
  env -u LD_LIBRARY_PATH mvn -B -q -Dstyle.color=never -Dmaven.repo.local="$m2" compile exec:exec
)
[ -f "$m2/${MAVEN_GROUP//.//}/$MAVEN_ARTIFACT/$MAVEN_VERSION/$MAVEN_ARTIFACT-$MAVEN_VERSION.jar" ] ||
  { echo "the artifact was not resolved into the scratch repository" >&2; exit 1; }

# ---------------------------------------------------------------------- Rust
echo "=== Rust: $CARGO_CRATE $CARGO_VERSION (and $CARGO_SYS_CRATE) from $out/cargo"
cp -R "$here/user/rust" "$scratch/rust-user"
sed -i "s|@CARGO_VERSION@|$CARGO_VERSION|" "$scratch/rust-user/Cargo.toml"
mkdir -p "$scratch/rust-user/.cargo"
cat > "$scratch/rust-user/.cargo/config.toml" <<EOT
[source.crates-io]
replace-with = "pto-local"

[source.pto-local]
local-registry = "$out/cargo"
EOT
(
  cd "$scratch/rust-user"
  CARGO_HOME=$scratch/cargo-home cargo run --offline --quiet
)

echo "packaging: 3 passed, 0 failed"
