#!/bin/sh
# Runs the Java binding's Maven build (SWIG and the JNI library are built by
# Maven itself, see pom.xml), its JUnit 5 tests against the native libraries
# as bundled in the jar, then the Java quickstart against the packaged jar.
#   run-tests.sh MAVEN_BUILD_DIR     (MVN, JAVA: commands; PKG_CONFIG_PATH
#                                     must find libpto)
# MAVEN_FLAGS adds Maven options, e.g. -o once the local repository is filled.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
mvn=${MVN:-mvn}
java=${JAVA:-java}

echo "+ mvn package (swig, libptojni.so, tests, jar, sources, javadoc)"
# shellcheck disable=SC2086
"$mvn" -B -q -Dstyle.color=never ${MAVEN_FLAGS:-} -f "$here/pom.xml" \
  -Dpto.build.directory="$build" clean package
# -q hides Surefire's summary; count from its reports.
cat "$build"/surefire-reports/TEST-*.xml | awk '
  /<testsuite / {
    for (i = 1; i <= NF; i++) {
      split($i, kv, "=")
      gsub(/[">]/, "", kv[2])
      if (kv[1] in n) n[kv[1]] += kv[2]; else n[kv[1]] = kv[2]
    }
  }
  END { printf "JUnit: %d tests, %d failures, %d errors, %d skipped\n", n["tests"], n["failures"], n["errors"], n["skipped"] }'

jar=$(ls "$build"/pto-*.jar | grep -v -e '-sources.jar$' -e '-javadoc.jar$')
for f in "$build"/pto-*-sources.jar "$build"/pto-*-javadoc.jar; do
  [ -s "$f" ] || { echo "missing $f"; exit 1; }
done
echo "+ java -cp $(basename "$jar") examples/java/Quickstart.java (bundled native library, no LD_LIBRARY_PATH)"
env -u LD_LIBRARY_PATH "$java" -cp "$jar" "$root/examples/java/Quickstart.java" "$root/examples/kernels/softmax.pto"
