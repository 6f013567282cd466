#!/usr/bin/env python3
"""Holds tests/test_edge_indices.c's walk to include/pto_c.h: every exported
function with an integer parameter that is an index, offset, count or byte
size (by its name: index, *_index, index_*, offset, *_offset, count,
*_count, nbytes, length, *_elements, *_len, blocks) must have a
"FUNCTION PARAMETER" line marked WALKED in the test. Prints the candidates
the header declares; fails, naming them, when one is not walked, or when the
test walks a pair the header no longer declares.

usage: check-edge-walk.py pto_c.h test_edge_indices.c"""
import re
import sys

INTEGER = re.compile(r'\b(size_t|u?int(8|16|32|64)_t|int|unsigned|long)\b')
NAME = re.compile(r'^(index|index_\w+|\w+_index|offset|\w+_offset|count|\w+_count|nbytes|'
                  r'length|\w+_elements|\w+_len|blocks)$')


def candidates(header_text):
    text = re.sub(r'/\*.*?\*/', ' ', header_text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    found = []
    for m in re.finditer(r'PTO_API\s+[^;{(]*?\b(pto_\w+)\s*\(([^)]*)\)\s*;', text, re.S):
        for param in ' '.join(m.group(2).split()).split(','):
            words = param.replace('*', ' * ').split()
            if not words or '*' in words or '[' in param:
                continue
            name = words[-1]
            if INTEGER.search(' '.join(words[:-1])) and NAME.match(name):
                found.append(f'{m.group(1)} {name}')
    return found


def main():
    header, test = sys.argv[1], sys.argv[2]
    want = candidates(open(header, encoding='utf-8').read())
    walked = set(re.findall(r'"(pto_\w+ \w+)",\s*/\* WALKED \*/', open(test, encoding='utf-8').read()))
    print(f'{len(want)} (function, parameter) pairs of {header} take an index, offset, count or size:')
    for pair in want:
        print(f'  {pair}{"" if pair in walked else "   <- not walked"}')
    missing = [p for p in want if p not in walked]
    stale = sorted(walked - set(want))
    if missing:
        print(f'FAIL: {len(missing)} not in {test}\'s walk: {", ".join(missing)}')
    if stale:
        print(f'FAIL: {test} walks {", ".join(stale)}, which {header} does not declare')
    return 1 if missing or stale else 0


if __name__ == '__main__':
    sys.exit(main())
