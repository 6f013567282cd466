#!/bin/sh
# One benchmark run of the bindings: ns per pto_trsqrt call on float32 1x1
# tiles (the per-call cost) and 64x64 tiles (per element: / 4096) from C, Go,
# Java and Rust, one after the other on the same machine, then a markdown
# table with each binding's overhead over the C call.
#   bench/bindings/run.sh [BUILD_DIR]     (default: build; bindings enabled)
# Go also reports a bare cgo call (pto_tile_rows) for reference. Each
# figure is the best of 31 rounds (the fastest round is the least disturbed
# by other load on the machine).
set -eu
# shellcheck source=bench/bindings/env.sh
. "$(dirname "$0")/env.sh"
results=$tmp/results

# shellcheck disable=SC2046
cc -O2 "$here/bench.c" $(pkg-config --cflags --libs pto) -o "$tmp/bench-c"
"$tmp/bench-c" | tee -a "$results"

(cd "$root/bindings/go" && GOTOOLCHAIN=local GOPROXY=off go test -run '^$' \
  -bench '^(BenchmarkBareCgo|BenchmarkTRsqrt1x1|BenchmarkTRsqrt64x64)$' -benchtime 100000x -count 31 .) |
  awk '/^Benchmark/ { name = $1; sub(/-[0-9]+$/, "", name); if (!(name in v) || $3 + 0 < v[name]) v[name] = $3 + 0 }
       END { map["BenchmarkBareCgo"] = "bare_cgo"; map["BenchmarkTRsqrt1x1"] = "trsqrt_1x1"
             map["BenchmarkTRsqrt64x64"] = "trsqrt_64x64"
             for (k in v) printf "go %s %.1f\n", map[k], v[k] }' |
  tee -a "$results"

jar=$(java_jar)
javac -d "$tmp/java" -cp "$jar" "$here/Bench.java"
java -cp "$tmp/java:$jar" Bench | tee -a "$results"

cargo run --quiet --release --manifest-path "$here/rust/Cargo.toml" --target-dir "$build/bench-bindings-rust" |
  tee -a "$results"

echo
awk -v cpu="$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" '
  { t[$1 " " $2] = $3 }
  END {
    c1 = t["c trsqrt_1x1"]; c64 = t["c trsqrt_64x64"]
    printf "\n%s; pto_trsqrt float32, best of 31 rounds, ns\n\n", cpu
    print "| language | 1x1 call (ns) | overhead over C (ns) | 64x64 per element (ns) |"
    print "|---|---|---|---|"
    split("c go java rust", langs, " ")
    for (i = 1; i <= 4; i++) {
      l = langs[i]
      printf "| %s | %.1f | %s | %.3f |\n", (l == "c" ? "C" : l == "go" ? "Go" : l == "java" ? "Java" : "Rust"),
        t[l " trsqrt_1x1"], (l == "c" ? "-" : sprintf("%.1f", t[l " trsqrt_1x1"] - c1)), t[l " trsqrt_64x64"] / 4096
    }
    if (t["go bare_cgo"] != "") printf "\nGo bare cgo call (pto_tile_rows): %.1f ns\n", t["go bare_cgo"]
  }' "$results"
