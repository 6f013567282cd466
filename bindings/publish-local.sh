#!/bin/sh
# Publishes the three bindings into local registries, as a release would
# publish them to the real ones, so that user projects can be built from
# them alone (tests/packaging/check-user-projects.sh does that in CI):
#
#   OUTDIR/go      a Go module proxy directory: GOPROXY=file://OUTDIR/go
#   OUTDIR/maven   a Maven repository (file://OUTDIR/maven)
#   OUTDIR/cargo   a cargo local registry (pto-sys, pto and their
#                  dependencies from crates.io), for [source] replacement
#   OUTDIR/coordinates.env   GO_MODULE, GO_VERSION, MAVEN_GROUP,
#                  MAVEN_ARTIFACT, MAVEN_VERSION, CARGO_CRATE,
#                  CARGO_SYS_CRATE, CARGO_VERSION
#
#   bindings/publish-local.sh OUTDIR
#
# The jar carries the natives of linux-x86_64 and linux-aarch64 (of the
# host and of the other one): the host's libpto is the one pkg-config finds,
# the other is cross-built here from this checkout, library only
# (cross/aarch64-linux-gnu.ini, or cross/x86_64-linux-gnu.ini on an aarch64
# host, with Debian's crossbuild-essential and the :ARCH libhwy-dev).
# PTO_JNI_CROSS, when set, replaces that cross build (see
# bindings/java/src/main/native/build-native.sh); PTO_JAR_HOST_ONLY=1 gives a
# jar with the host's natives only; PTO_CROSS_MESON_ARGS adds meson options
# to the cross build (e.g. -Dsimd_targets=baseline).
#
# Needs: libpto found by pkg-config (PKG_CONFIG_PATH; the jar bundles that
# libpto), python3, git, meson and the cross toolchain, and for the Java
# artifact mvn, swig and cc, for the crates cargo (network: crates.io for the
# pkg-config crate, Maven Central for plugins, unless already cached). Every
# version is the meson project's.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
mvn=${MVN:-mvn}
cargo=${CARGO:-cargo}
publish=$root/bindings/publish

version=$(sed -n "s/^ *version *: *'\([0-9][0-9.]*\)'.*/\1/p" "$root/meson.build" | head -n 1)
[ -n "$version" ] || { echo "publish-local.sh: no version in meson.build" >&2; exit 1; }
go_module=$(sed -n 's/^module //p' "$root/bindings/go/go.mod")
maven_group=org.libpto maven_artifact=pto

# Each binding declares the library's version.
for f in bindings/rust/pto-sys/Cargo.toml bindings/rust/pto/Cargo.toml; do
  grep -q "^version = \"$version\"" "$root/$f" || { echo "$f: version is not $version" >&2; exit 1; }
done
grep -q "<version>$version</version>" "$root/bindings/java/pom.xml" ||
  { echo "bindings/java/pom.xml: version is not $version" >&2; exit 1; }

work=$out/.work
rm -rf "$out/go" "$out/maven" "$out/cargo" "$work"
mkdir -p "$work"

echo "=== Go: $go_module v$version -> $out/go"
# The module is the tracked files under bindings/go (the committed cgo layer
# included), at the time of the last commit.
time=$(git -C "$root" log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
git -C "$root/bindings/go" ls-files |
  python3 "$publish/go_module_proxy.py" "$out/go" "$go_module" "v$version" "$root/bindings/go" "$time"

echo "=== Maven: $maven_group:$maven_artifact:$version -> $out/maven"
if [ -z "${PTO_JNI_CROSS:-}" ] && [ "${PTO_JAR_HOST_ONLY:-0}" != 1 ]; then
  case "$(uname -m)" in
    x86_64 | amd64) other=linux-aarch64 triple=aarch64-linux-gnu ;;
    aarch64 | arm64) other=linux-x86_64 triple=x86_64-linux-gnu ;;
    *) echo "publish-local.sh: no cross build for $(uname -m); set PTO_JNI_CROSS or PTO_JAR_HOST_ONLY=1" >&2; exit 1 ;;
  esac
  cross_file=$root/cross/$triple.ini
  [ -f "$cross_file" ] && command -v "$triple-gcc" >/dev/null || {
    echo "publish-local.sh: the $other natives need $triple-gcc and $cross_file (or PTO_JAR_HOST_ONLY=1)" >&2; exit 1; }
  echo "--- libpto for $other (cross, library only)"
  meson setup "$work/cross" --cross-file "$cross_file" --prefix "$work/cross-prefix" --libdir lib \
    -Dtests=false -Dbench=false -Dbindings=disabled -Dpython=disabled ${PTO_CROSS_MESON_ARGS:-} > "$work/cross-setup.log" ||
    { cat "$work/cross-setup.log" >&2; exit 1; }
  meson install -C "$work/cross" --quiet > "$work/cross-build.log" || { tail -n 40 "$work/cross-build.log" >&2; exit 1; }
  PTO_JNI_CROSS="$other:$triple-gcc:$triple-pkg-config:$work/cross-prefix/lib/pkgconfig"
fi
"$mvn" -B -q -Dstyle.color=never ${MAVEN_FLAGS:-} -f "$root/bindings/java/pom.xml" \
  -Dpto.build.directory="$work/maven" -DskipTests -Dmaven.install.skip=true \
  -Dpto.jni.cross="${PTO_JNI_CROSS:-}" \
  -DaltDeploymentRepository="pto-local::file://$out/maven" deploy

echo "=== cargo: pto-sys, pto $version -> $out/cargo"
manifest=$root/bindings/rust/Cargo.toml
"$cargo" package --quiet --no-verify --allow-dirty --locked -p pto-sys -p pto \
  --manifest-path "$manifest" --target-dir "$work/cargo"
# The crates.io dependencies a user's build of pto needs (normal and build
# dependencies, default features), from cargo's download cache.
"$cargo" fetch --quiet --locked --manifest-path "$manifest"
deps=$("$cargo" tree --quiet --locked --offline --manifest-path "$manifest" -p pto -e normal,build \
  --prefix none --format '{p}' | sed 's/ (.*//' | sort -u | grep -v -e '^pto ' -e '^pto-sys ')
cache=${CARGO_HOME:-$HOME/.cargo}/registry/cache
set -- "$work/cargo/package/pto-sys-$version.crate" "$work/cargo/package/pto-$version.crate"
echo "$deps" | while read -r name v; do
  [ -n "$name" ] || continue
  crate=$(ls "$cache"/*/"$name-${v#v}.crate" 2>/dev/null | head -n 1)
  [ -n "$crate" ] || { echo "publish-local.sh: $name ${v#v} is not in $cache" >&2; exit 1; }
  echo "$crate"
done > "$work/deps.txt"
# shellcheck disable=SC2046
python3 "$publish/cargo_local_registry.py" "$out/cargo" "$@" $(cat "$work/deps.txt")

cat > "$out/coordinates.env" <<EOT
GO_MODULE=$go_module
GO_VERSION=v$version
MAVEN_GROUP=$maven_group
MAVEN_ARTIFACT=$maven_artifact
MAVEN_VERSION=$version
CARGO_CRATE=pto
CARGO_SYS_CRATE=pto-sys
CARGO_VERSION=$version
EOT
rm -rf "$work"
echo "=== wrote $out/coordinates.env"
cat "$out/coordinates.env"
