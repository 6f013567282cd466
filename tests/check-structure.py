#!/usr/bin/env python3
"""The structure of src/ as rules a change can break:

  1. The stages of src/program/ never reach each other's headers (an
     include, directly or through other headers of the tree): ir/ reaches
     no stage; parse/ and run/ never reach each other, nor verify.h or
     build.h; verify.cc reaches neither parse/ nor run/. Only build.cc runs
     the stages in order: no file of parse/ calls Verify or Build, and
     verify.cc calls neither Compile nor Build.
  2. No file of src/program/ reaches a src/kernels/ header: programs run the
     table's operations (src/ops/), which call the kernels.
  3. No C/C++ function in src/ is 100 lines long or longer (at most 99).
  4. No class in src/ is longer than 1,200 lines: its declaration plus the
     definitions of its methods outside it.
  5. src/README.md's map names every file of src/ (but itself and the
     meson.build files): by its path under src/ (ops/tcvt.cc) where
     another file of src/ has the same name, else by its name.
  6. The rooms of src/ include one another without a circle (so none
     includes upward): a room is a directory (kernels/, ops/, mpi/, each
     stage of program/) or a top-level file with its header (tile.h and
     tile_api.cc are two rooms; buffer.h and buffer.cc one). And no file
     outside src/program/ reaches it: the programs sit above the library.
  7. No C/C++ file of src/ is longer than 600 lines (the tables, .def and
     .inc files, grow by a row an operation and are not held to it).

Usage: check-structure.py [SOURCE_ROOT]   (default: this file's repository)
Prints each broken rule with the file and line it is about; exits 1 if any.

The scanner reads C and C++ by braces: comments, string and character
literals and preprocessor lines are blanked first, then every brace block at
namespace or class scope is a namespace, a class, a function or an
initializer, judged by the text before its '{'.
"""

import os
import re
import sys

MAX_FUNCTION_LINES = 99
MAX_CLASS_LINES = 1200
MAX_FILE_LINES = 600
SOURCE_SUFFIXES = ('.c', '.cc', '.cpp', '.h')

# Exceptions, each with its reason, while a change that removes it is under
# way: include edges that rule 2 follows as if absent ((including file,
# included file)) and functions allowed over MAX_FUNCTION_LINES ((file,
# qualified name)). An entry whose reason is gone is an error, so none
# outlives its reason. None today.
KNOWN_KERNEL_REACHES = set()
KNOWN_LONG_FUNCTIONS = set()
# Include edges rule 6 follows as if absent, each with its reason.
KNOWN_CIRCLE_EDGES = set()


def blank_code(text):
    """text with comments, string and char literals and preprocessor lines
    replaced by spaces (newlines kept, so offsets and lines stay put)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True

    def blank(a, b):
        for k in range(a, b):
            if out[k] != '\n':
                out[k] = ' '

    while i < n:
        c = text[i]
        if line_start and c in ' \t':
            i += 1
            continue
        if line_start and c == '#':
            # A preprocessor line, with its backslash continuations.
            j = i
            while j < n and text[j] != '\n':
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '\n':
                    j += 2
                    continue
                if text.startswith('/*', j):
                    end = text.find('*/', j + 2)
                    j = n if end < 0 else end + 2
                    continue
                j += 1
            blank(i, j)
            i = j
            continue
        line_start = False
        if c == '\n':
            line_start = True
            i += 1
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not _ident(text[i - 1])):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(')' + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            blank(i + 1, j - 1)
            i = j
        elif c in '"\'':
            if c == "'" and i > 0 and text[i - 1].isdigit():
                i += 1  # a digit separator: 1'000
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return ''.join(out)


def _ident(ch):
    return ch.isalnum() or ch == '_'


def matching_brace(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == '{':
            depth += 1
        elif code[k] == '}':
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def top_level_paren(header):
    """Index of the first '(' of header outside <...> and brackets, or -1."""
    depth = 0
    for k, ch in enumerate(header):
        if ch in '[<':
            depth += 1
        elif ch in ']>' and depth > 0:
            depth -= 1
        elif ch == '(' and depth == 0:
            return k
    return -1


def function_name(header):
    paren = top_level_paren(header)
    if paren < 0:
        return None, -1
    m = re.search(r'((?:[A-Za-z_]\w*\s*(?:<[^()]*>)?\s*::\s*)*~?(?:operator\s*\S+?|[A-Za-z_]\w*))\s*$',
                  header[:paren])
    if not m:
        return None, -1
    return re.sub(r'\s+', '', m.group(1)), m.start(1)


CLASS_HEAD = re.compile(r'\b(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(?:alignas\s*\([^)]*\)\s*)?'
                        r'([A-Za-z_]\w*)[^(){};=]*$')


class Scan:
    """Functions and classes of one file."""

    def __init__(self, path, text):
        self.path = path
        self.code = blank_code(text)
        self.line_at = []
        line = 1
        for ch in self.code:
            self.line_at.append(line)
            if ch == '\n':
                line += 1
        self.line_at.append(line)
        self.functions = []  # (name, first line, last line)
        self.classes = []    # (name, first line, last line)
        self.scope(0, len(self.code), [])

    def line(self, offset):
        return self.line_at[offset]

    def scope(self, begin, end, classes):
        """Reads the namespace or class scope code[begin:end]."""
        code = self.code
        start = begin
        k = begin
        while k < end:
            ch = code[k]
            if ch in ';}':
                start = k + 1
            elif ch == '{':
                header = code[start:k]
                close = self.block_end(start, k)
                if close is None:  # a brace of a constructor's initializer list
                    k = matching_brace(code, k) + 1
                    continue
                self.judge(header, start, k, close, classes)
                k = close + 1
                start = k
                continue
            k += 1

    def block_end(self, start, open_at):
        """The closing brace of the block opened at open_at, or None when
        that brace initialises a member in a constructor's initializer list
        (name{...} followed by ',' or the body's '{')."""
        close = matching_brace(self.code, open_at)
        header = self.code[start:open_at]
        if re.search(r'\)\s*(?:noexcept\s*)?:(?!:)', header) and re.search(r'[\w>]\s*$', header):
            rest = self.code[close + 1:close + 200].lstrip()
            if rest[:1] in (',', '{'):
                return None
        return close

    def judge(self, header, start, open_at, close, classes):
        flat = ' '.join(header.split())
        if re.search(r'\bnamespace\b', flat) or re.match(r'^extern\s*""$', flat.strip()):
            self.scope(open_at + 1, close, classes)
            return
        if re.search(r'\benum\b', flat):
            return
        m = CLASS_HEAD.search(flat)
        if m and top_level_paren(flat) < 0:
            name = m.group(2)
            at = start + header.find(m.group(1))
            self.classes.append((name, self.line(at), self.line(close)))
            self.scope(open_at + 1, close, classes + [name])
            return
        name, at = function_name(header)
        if name is None:
            return  # an initializer
        before = header[:top_level_paren(header)]
        if '=' in before.replace('operator', '') and 'operator' not in before:
            return  # an initializer of a variable: x = f({...})
        if classes and '::' not in name:
            name = classes[-1] + '::' + name
        self.functions.append((name, self.line(start + at), self.line(close)))


def source_files(root):
    for top in ('src',):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def include_graph(root, files):
    """Each file's includes that resolve to files of the tree."""
    graph = {}
    for f in files:
        edges = []
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            for base in (os.path.dirname(f), 'src', 'include', '.'):
                cand = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(os.path.join(root, cand)):
                    edges.append(cand)
                    break
        graph[f] = edges
    return graph


def src_include_graph(root, files):
    """include_graph of the sources and every header of src/."""
    headers = set()
    for dirpath, _, filenames in os.walk(os.path.join(root, 'src')):
        for fn in filenames:
            if fn.endswith(('.h', '.def', '.inc')):
                headers.add(os.path.relpath(os.path.join(dirpath, fn), root))
    return include_graph(root, sorted(set(files) | headers))


def reach(graph, start, skip_edges):
    """Files start reaches by includes, each with the chain that reaches it."""
    seen = {start: [start]}
    todo = [start]
    while todo:
        f = todo.pop()
        for g in graph.get(f, []):
            if (f, g) in skip_edges or g in seen:
                continue
            seen[g] = seen[f] + [g]
            todo.append(g)
    return seen


# Rule 1: what each stage of src/program/ must not reach (a prefix of a
# directory, or a file), and the stage functions it must not call.
STAGES = (
    ('src/program/ir/', ('src/program/parse/', 'src/program/run/', 'src/program/verify.h',
                         'src/program/build.h'), ()),
    ('src/program/parse/', ('src/program/run/', 'src/program/verify.h', 'src/program/build.h'),
     ('Verify', 'Build')),
    ('src/program/run/', ('src/program/parse/', 'src/program/verify.h', 'src/program/build.h'),
     ('Compile', 'Verify', 'Build')),
    ('src/program/verify.', ('src/program/parse/', 'src/program/run/', 'src/program/build.h'),
     ('Compile', 'Build')),
)


def stage_of(f):
    for prefix, forbidden, calls in STAGES:
        if f.startswith(prefix):
            return prefix, forbidden, calls
    return None


def check_stage_calls(root, files, problems):
    """Rule 1's calls: a stage never calls another's entry point."""
    for f in sorted(files):
        stage = stage_of(f)
        if stage is None or not stage[2]:
            continue
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
            code = blank_code(fh.read())
        call = re.compile(r'(?<![\w.>])(?:program::)?(%s)\s*\(' % '|'.join(stage[2]))
        for m in call.finditer(code):
            line = code.count('\n', 0, m.start()) + 1
            problems.append('%s:%d: calls %s: only src/program/build.cc runs the stages in order' %
                            (f, line, m.group(1)))


def check_includes(root, files, problems):
    graph = src_include_graph(root, files)
    for edge in sorted(KNOWN_KERNEL_REACHES):
        if edge[1] not in graph.get(edge[0], []):
            problems.append('%s: no longer includes %s: delete that entry of KNOWN_KERNEL_REACHES '
                            'in tests/check-structure.py' % edge)
    for f in sorted(files):
        if not f.startswith('src/program/'):
            continue
        stage = stage_of(f)
        if stage is not None:
            for g, chain in sorted(reach(graph, f, set()).items()):
                for other in stage[1]:
                    if g.startswith(other):
                        problems.append('%s: reaches %s (%s): %s never includes %s' %
                                        (f, g, ' -> '.join(chain), stage[0], other))
        for g, chain in sorted(reach(graph, f, KNOWN_KERNEL_REACHES).items()):
            if g.startswith('src/kernels/'):
                problems.append('%s: reaches %s (%s): src/program/ never includes src/kernels/' %
                                (f, g, ' -> '.join(chain)))
                break


def check_sizes(root, files, problems):
    scans = {}
    for f in files:
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
            scans[f] = Scan(f, fh.read())
    long_seen = set()
    for f, scan in sorted(scans.items()):
        for name, first, last in scan.functions:
            lines = last - first + 1
            if lines <= MAX_FUNCTION_LINES:
                continue
            if (f, name) in KNOWN_LONG_FUNCTIONS:
                long_seen.add((f, name))
                continue
            problems.append('%s:%d: function %s is %d lines (at most %d)' %
                            (f, first, name, lines, MAX_FUNCTION_LINES))
    for f, name in sorted(KNOWN_LONG_FUNCTIONS - long_seen):
        problems.append('%s: %s is no longer over %d lines: delete its entry of '
                        'KNOWN_LONG_FUNCTIONS in tests/check-structure.py' %
                        (f, name, MAX_FUNCTION_LINES))
    # A class declared in a header is one class wherever its methods are
    # defined; one declared in a .c/.cc file is that file's own.
    declared = {}
    for f, scan in scans.items():
        for name, first, last in scan.classes:
            key = name if f.endswith('.h') else (f, name)
            entry = declared.setdefault(key, {'where': '%s:%d' % (f, first), 'lines': 0})
            entry['lines'] += last - first + 1
    for f, scan in scans.items():
        for name, first, last in scan.functions:
            if '::' not in name:
                continue
            owner = name.split('::')[-2]
            own = (f, owner)
            key = own if own in declared else owner
            # Inline definitions inside the declaration are counted with it.
            inside = any(c == owner and first >= a and last <= b for c, a, b in scan.classes)
            if key in declared and not inside:
                declared[key]['lines'] += last - first + 1
    for key, entry in sorted(declared.items(), key=lambda kv: kv[1]['where']):
        if entry['lines'] > MAX_CLASS_LINES:
            name = key if isinstance(key, str) else key[1]
            problems.append('%s: class %s is %d lines with its methods (at most %d)' %
                            (entry['where'], name, entry['lines'], MAX_CLASS_LINES))


def room_of(f):
    """Rule 6's room of a file of src/."""
    parts = f.split('/')
    if parts[1] == 'program':
        return 'program/' + (os.path.splitext(parts[2])[0] if len(parts) == 3 else parts[2])
    if len(parts) > 2:
        return parts[1]
    return os.path.splitext(parts[1])[0]


def check_rooms(root, files, problems):
    """Rule 6: the rooms' includes make no circle; nothing below reaches
    src/program/."""
    graph = src_include_graph(root, files)
    for edge in sorted(KNOWN_CIRCLE_EDGES):
        if edge[1] not in graph.get(edge[0], []):
            problems.append('%s: no longer includes %s: delete that entry of KNOWN_CIRCLE_EDGES '
                            'in tests/check-structure.py' % edge)
    arrows = {}  # room -> {room: (including file, included file)}
    for f, included in sorted(graph.items()):
        for g in included:
            if not g.startswith('src/') or (f, g) in KNOWN_CIRCLE_EDGES:
                continue
            a, b = room_of(f), room_of(g)
            if a != b:
                arrows.setdefault(a, {}).setdefault(b, (f, g))
            if not f.startswith('src/program/') and g.startswith('src/program/'):
                problems.append('%s: includes %s: nothing outside src/program/ reaches it' % (f, g))
    # A circle: a room that reaches itself through another.
    for start in sorted(arrows):
        seen = {start: [start]}
        todo = [start]
        while todo:
            a = todo.pop()
            for b in sorted(arrows.get(a, {})):
                if b == start:
                    rooms = seen[a] + [start]
                    edges = ['%s -> %s' % arrows[x][y] for x, y in zip(rooms, rooms[1:])]
                    problems.append('rooms %s include one another in a circle (%s)' %
                                    (' -> '.join(rooms), '; '.join(edges)))
                    todo = []
                    break
                if b not in seen:
                    seen[b] = seen[a] + [b]
                    todo.append(b)
            else:
                continue
            break


def check_file_sizes(root, files, problems):
    """Rule 7."""
    for f in sorted(files):
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
            lines = sum(1 for _ in fh)
        if lines > MAX_FILE_LINES:
            problems.append('%s: %d lines (at most %d)' % (f, lines, MAX_FILE_LINES))


def check_map(root, problems):
    """Rule 5: every file of src/ is on src/README.md's map."""
    with open(os.path.join(root, 'src', 'README.md'), encoding='utf-8') as fh:
        text = fh.read()
    paths = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'src')):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn not in ('README.md', 'meson.build'):
                paths.append(os.path.relpath(os.path.join(dirpath, fn), os.path.join(root, 'src')))
    names = {}
    for path in paths:
        names.setdefault(os.path.basename(path), []).append(path)

    def named(name):
        return re.search(r'(?<![\w.-])%s(?![\w-])' % re.escape(name), text) is not None

    for path in paths:
        unique = len(names[os.path.basename(path)]) == 1
        if named(path) or (unique and named(os.path.basename(path))):
            continue
        problems.append('src/%s: not on the map of src/README.md (name it there%s)' %
                        (path, '' if unique else ' by its path under src/, ' + path))


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = list(source_files(root))
    problems = []
    check_includes(root, files, problems)
    check_stage_calls(root, files, problems)
    check_map(root, problems)
    check_rooms(root, files, problems)
    check_file_sizes(root, files, problems)
    check_sizes(root, files, problems)
    for p in problems:
        print(p)
    if problems:
        print('check-structure: %d problem(s)' % len(problems))
        return 1
    print('check-structure: %d files, every rule holds' % len(files))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
