#!/bin/bash
# Verifies and runs the PTO assembly files of a PTOAS checkout's test/samples
# with pto-run: each file is first verified (--check), then run once on
# zero-filled arrays, its integer arguments set to 0, then 32, then 1 until
# a run succeeds (its float arguments 1.0), arrays of 2^22 elements, then
# 2^26. Prints one line per file (VERIFIED+RAN, VERIFIED, REFUSED with the
# first error) and a count of each.
#   tools/ptoas-samples.sh PTOAS_DIR|TREE [PTO_RUN]
set -u
dir=${1:?usage: tools/ptoas-samples.sh PTOAS_DIR [PTO_RUN]}
pto_run=${2:-build/tools/pto-run/pto-run}
# A PTOAS checkout's test/samples, or any tree of .pto files (pto-kernels'
# bench/generated).
root=$dir/test/samples
[ -d "$root" ] || root=$dir
declare -A count=()
while IFS= read -r -d '' file; do
  check=$("$pto_run" "$file" --check 2>&1)
  if [ $? -ne 0 ]; then
    echo "REFUSED $file: $(echo "$check" | grep -m1 error: | sed 's/^[^ ]* error: //')"
    count[refused]=$((${count[refused]:-0} + 1))
    continue
  fi
  ran=0 last=""
  for elements in 4194304 67108864; do
    for int in 0 32 1; do
      args=()
      while read -r name rest; do
        case "$rest" in
          "a pointer to "*) dt=${rest#a pointer to }; args+=("$name=zeros:${dt%%,*}:$elements") ;;
          "an integer scalar"*) args+=("$name=$int") ;;
          "a float scalar"*) args+=("$name=1.0") ;;
        esac
      done < <(echo "$check" | sed -n '/^parameters:/,/^functions:/p' | sed '1d;$d')
      last=$(timeout 120 "$pto_run" "$file" "${args[@]}" 2>&1) && { ran=1; break 2; }
    done
  done
  if [ $ran = 1 ]; then
    echo "VERIFIED+RAN $file"
    count[ran]=$((${count[ran]:-0} + 1))
  else
    echo "VERIFIED $file (no run: $(echo "$last" | grep -m1 error: | sed 's/^[^ ]* error: //'))"
    count[verified]=$((${count[verified]:-0} + 1))
  fi
done < <(find "$root" -name '*.pto' -print0 | sort -z)
echo "verified and ran: ${count[ran]:-0}; verified, no run found: ${count[verified]:-0}; refused: ${count[refused]:-0}"
