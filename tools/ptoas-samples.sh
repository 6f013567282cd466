#!/bin/bash
# Verifies and runs the PTO assembly files of a PTOAS checkout's test/samples
# with pto-run: each file is first verified (--check), then run once on
# zero-filled arrays, its integer arguments set to 0, then 32, 1, 16, 128 until
# a run succeeds (its float arguments 1.0), arrays of 2^22 elements, then
# 2^26; an array that a view of the kernel's own constant shape reaches past
# ("the view reaches element N of %NAME") is grown to N + 1 elements, up to
# 2^28, and the run tried again. Prints one line per file (VERIFIED+RAN,
# VERIFIED with the first error of a run that is not about the made-up
# arguments, else the last, REFUSED with the first error) and a count of each.
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
  ran=0 last="" rule=""
  for elements in 4194304 67108864; do
    for int in 0 32 1 16 128; do
      declare -A grown=()
      for attempt in 1 2 3 4 5 6 7 8; do
        args=()
        while read -r name rest; do
          case "$rest" in
            "a pointer to "*) dt=${rest#a pointer to }
              args+=("$name=zeros:${dt%%,*}:${grown[$name]:-$elements}") ;;
            "an integer scalar"*) args+=("$name=$int") ;;
            "a float scalar"*) args+=("$name=1.0") ;;
          esac
        done < <(echo "$check" | sed -n '/^parameters:/,/^functions:/p' | sed '1d;$d')
        last=$(timeout 120 "$pto_run" "$file" "${args[@]}" 2>&1) && { ran=1; break 3; }
        # Report the first error that is not about the made-up arguments.
        if [ -z "$rule" ] && ! echo "$last" | grep -m1 error: |
            grep -q 'pto.partition_view: \[\|the view reaches element\|pto.load_scalar: element\|pto.store_scalar: element'; then
          rule=$last
        fi
        # A view whose shape the kernel fixes reaches past the array: grow that
        # array to the element it reaches, once per array, at most 2^28.
        reach=$(echo "$last" | grep -m1 -o 'the view reaches element [0-9]* of %[A-Za-z0-9_]*')
        [ -n "$reach" ] || break
        need=$(echo "$reach" | awk '{print $5 + 1}') arg=${reach##*%}
        { [ -z "${grown[$arg]:-}" ] && [ "$need" -le 268435456 ]; } || break
        grown[$arg]=$need
      done
      unset grown
    done
  done
  if [ $ran = 1 ]; then
    echo "VERIFIED+RAN $file"
    count[ran]=$((${count[ran]:-0} + 1))
  else
    echo "VERIFIED $file (no run: $(echo "${rule:-$last}" | grep -m1 error: | sed 's/^[^ ]* error: //'))"
    count[verified]=$((${count[verified]:-0} + 1))
  fi
done < <(find "$root" -name '*.pto' -print0 | sort -z)
echo "verified and ran: ${count[ran]:-0}; verified, no run found: ${count[verified]:-0}; refused: ${count[refused]:-0}"
