# Sourced by run.sh and gc.sh: root, build, here, tmp (removed on exit), the
# environment that finds libpto in BUILD, and java_jar (prints the Java
# binding's jar, building it if the meson java suite has not).
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here=$root/bench/bindings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKG_CONFIG_PATH=$build/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH=$build/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

java_jar() {
  jar=$(ls "$build"/bindings/java/maven/pto-*.jar 2>/dev/null | grep -v -e sources -e javadoc | head -n 1)
  if [ -z "$jar" ]; then
    mvn -B -q -f "$root/bindings/java/pom.xml" -Dpto.build.directory="$tmp/maven" -DskipTests package >&2
    jar=$(ls "$tmp"/maven/pto-*.jar | grep -v -e sources -e javadoc | head -n 1)
  fi
  echo "$jar"
}
