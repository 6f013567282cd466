#!/bin/sh
# Runs the Java binding's JUnit 5 tests with Maven, then the Java quickstart
# against the classes Maven compiled. LD_LIBRARY_PATH must include the
# directory of libptojni.so.
#   run-tests.sh GENERATED_SOURCES_DIR MAVEN_BUILD_DIR     (MVN, JAVA: commands)
# MAVEN_FLAGS adds Maven options, e.g. -o once the local repository is filled.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
generated=$1
build=$2
mvn=${MVN:-mvn}
java=${JAVA:-java}

echo "+ mvn test"
# shellcheck disable=SC2086
"$mvn" -B -q -Dstyle.color=never ${MAVEN_FLAGS:-} -f "$here/pom.xml" \
  -Dpto.generated.sources="$generated" -Dpto.build.directory="$build" test
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

echo "+ java examples/java/Quickstart.java"
"$java" -cp "$build/classes" "$root/examples/java/Quickstart.java"
