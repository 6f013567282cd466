#!/usr/bin/env bash
# The ABI probe (meson.build here) compiles src/meson.build's pto_api_sources
# again with debug info: a file that defines an exported function but is not
# in that list leaves its types out of the check without any error. This test
# finds, under SRC_DIR, every file that defines a function HEADER declares
# (PTO_API) and compares that set of files with the list meson passes. The
# operations' C functions are expanded from operations.def's rows
# (pto_##mnemonic): for pto_<mnemonic> of a row, the file that expands it;
# the settings' likewise from settings.def's.
# Usage: check-api-sources.sh SRC_DIR HEADER API_SOURCE...
set -euo pipefail
src=$(cd "$1" && pwd) header=$2
shift 2
status=0
declared=$(sh "$(dirname "$0")/../hardening/declared-functions.sh" "$header")
operations=$(sed -nE 's/^PTO_OPERATION\([A-Za-z0-9]+, *[A-Z0-9_]+, *([a-z0-9_]+),.*/pto_\1/p' \
               "$src/operations.def" | sort -u)
settings=$(sed -nE 's/^PTO_SETTING\([A-Za-z0-9]+, *[A-Z0-9_]+, *([a-z0-9_]+),.*/pto_\1/p' \
             "$src/settings.def" | sort -u)

# The list as meson passes it, relative to SRC_DIR.
listed=$(for f in "$@"; do
  f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
  echo "${f#"$src"/}"
done | sort -u)

# A definition starts in column 0: a return type (words, spaces, '*'), then
# the name and its '('. Calls are indented or follow other text, and the
# only declarations are in include/.
defining=
undefined=
while read -r symbol; do
  [ -n "$symbol" ] || continue
  if grep -qx "$symbol" <<<"$operations"; then
    pattern='^[^/]*[ *]pto_##mnemonic\(PTO_OPERANDS'
  elif grep -qx "$symbol" <<<"$settings"; then
    pattern='^[^/]*[ *]pto_##mnemonic\(PTO_SETTING'
  else
    pattern="^[A-Za-z_][A-Za-z0-9_ *]*[ *]${symbol}\\("
  fi
  files=$(cd "$src" && grep -rlE --include='*.c' --include='*.cc' "$pattern" . |
            sed 's|^\./||' || true)
  if [ -z "$files" ]; then
    undefined+="$symbol"$'\n'
  fi
  defining+="$files"$'\n'
done <<<"$declared"
defining=$(echo "$defining" | sed '/^$/d' | sort -u)

if [ -n "$undefined" ]; then
  echo "no file under $src defines (in column 0) these exported functions:"
  printf '%s' "$undefined"
  status=1
fi
if [ "$defining" != "$listed" ]; then
  echo "pto_api_sources (src/meson.build) differs from the files that define exported" \
       "functions (< defining, > listed):"
  diff <(echo "$defining") <(echo "$listed") || true
  status=1
fi
[ "$status" = 0 ] && echo "$(echo "$listed" | wc -l) files define the exported functions," \
                          "all in pto_api_sources: OK"
exit "$status"
