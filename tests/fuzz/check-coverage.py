#!/usr/bin/env python3
"""Every function pto_c.h declares is called by the API fuzz harness: by
name in one of its files (tests/fuzz/fuzz_api*.c), or as a row of
src/operations.def, which the harness calls through op_call. Prints the
functions missing; exits 1 if any.

usage: check-coverage.py SOURCE_ROOT"""
import glob
import os
import re
import sys

root = sys.argv[1]
header = open(os.path.join(root, 'include', 'pto_c.h'), encoding='utf-8').read()
header = re.sub(r'/\*.*?\*/', ' ', header, flags=re.S)
declared = re.findall(r'PTO_API\s+[^;{(]*?\b(pto_\w+)\s*\(', header)
harness = ''.join(open(f, encoding='utf-8').read()
                  for f in sorted(glob.glob(os.path.join(root, 'tests', 'fuzz', 'fuzz_api*.c'))))
rows = set('pto_' + m for m in re.findall(r'^PTO_OPERATION\(\w+,\s*\w+,\s*(\w+),',
                                           open(os.path.join(root, 'src', 'operations.def')).read(), re.M))
missing = [f for f in declared if f not in rows and not re.search(r'\b' + f + r'\s*\(', harness)]
print(f'{len(declared)} functions in pto_c.h: {len(rows)} table rows (op_call), '
      f'{len(declared) - len(rows) - len(missing)} called by name, {len(missing)} not called')
for f in missing:
    print(f'  not called by the API fuzz harness: {f}')
sys.exit(1 if missing else 0)
