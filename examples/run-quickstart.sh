#!/bin/sh
# The README's demo as a test: the quickstart (the softmax from C calls and
# from the kernel on 2 blocks, bits compared; its exit status says), then
# pto-run on the input it wrote, whose result must be the C calls' bytes.
#   run-quickstart.sh QUICKSTART PTO_RUN SOFTMAX_PTO WORK_DIR
set -eu
quickstart=$1 pto_run=$2 kernel=$3 work=$4
mkdir -p "$work"
"$quickstart" "$kernel" "$work"
"$pto_run" "$kernel" --blocks 2 x="$work/softmax-x.npy" y=zeros:f32:64x256 m=64 n=256 \
  --out y="$work/softmax-y.npy"
cmp "$work/softmax-c.npy" "$work/softmax-y.npy"
echo "pto-run on 2 blocks: softmax-y.npy holds the C calls' bytes"
