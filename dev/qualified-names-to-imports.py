#!/usr/bin/env python3
"""Replaces qualified type names in Java code by imports and simple names, where the simple name is free in the file
(the rule InlineQualifiedNamesTest checks), and orders the import section. Usage: dev/qualified-names-to-imports.py FILE...
Compile afterwards: the compiler is the judge of a name an inherited member type would shadow."""
import re, sys, os

PAT = re.compile(r'(?<![\w.@"])((?:java|javax|io|org|com|jdk|sun)\.(?:[a-z_][a-z0-9_]*\.)+)([A-Z]\w*)')
STR = re.compile(r'"(?:\\.|[^"\\])*"')

def code_spans(lines):
    """Yield (index, code) for code lines (not comments/imports/package); code has strings blanked."""
    incomment = False
    for i, line in enumerate(lines):
        st = line.strip()
        if incomment:
            if '*/' in st:
                incomment = False
            continue
        if st.startswith('/*'):
            if '*/' not in st:
                incomment = True
            continue
        if st.startswith('*') or st.startswith('//') or st.startswith('import ') or st.startswith('package '):
            continue
        yield i, line

def process(path, root):
    src = open(path, encoding='utf-8').read()
    lines = src.split('\n')
    pkg_m = re.search(r'^package ([\w.]+);', src, re.M)
    pkg = pkg_m.group(1) if pkg_m else ''
    imports = re.findall(r'^import (?!static )([\w.]+);', src, re.M)
    imported_simple = {i.rsplit('.', 1)[1]: i for i in imports}
    wildcard = any(i.endswith('.*') for i in re.findall(r'^import (?!static )([\w.*]+);', src, re.M))
    declared = set(re.findall(r'\b(?:class|interface|enum|record)\s+([A-Z]\w*)', src))
    # type parameters like <T> and same-package classes
    pkg_dir = os.path.join(root, pkg.replace('.', '/'))
    same_pkg = {f[:-5] for f in os.listdir(pkg_dir) if f.endswith('.java')} if os.path.isdir(pkg_dir) else set()
    found = {}
    for i, line in code_spans(lines):
        code = STR.sub(lambda m: '"' + ' ' * (len(m.group(0)) - 2) + '"', line)
        code = code.split('//')[0]
        for m in PAT.finditer(code):
            found.setdefault(m.group(2), set()).add(m.group(1) + m.group(2))
    replace = {}
    for simple, fqns in found.items():
        if len(fqns) != 1:
            continue
        fqn = next(iter(fqns))
        fpkg = fqn.rsplit('.', 1)[0]
        if simple in imported_simple and imported_simple[simple] != fqn:
            continue
        if simple in declared and fpkg != pkg:
            continue
        if fpkg != pkg and simple in same_pkg:
            continue
        if fpkg == 'java.lang':
            replace[fqn] = None
            continue
        if wildcard and fpkg != pkg:
            pass
        # a simple name shadowing a java.lang class (e.g. Process, Thread, Record) imported from elsewhere is fine
        replace[fqn] = None if fpkg == pkg else fqn
    if not replace:
        return 0
    n = 0
    for i, line in code_spans(lines):
        parts = re.split(r'("(?:\\.|[^"\\])*")', line)
        changed = False
        for k in range(0, len(parts), 2):
            seg = parts[k]
            cpos = seg.find('//')
            head, tail = (seg, '') if cpos < 0 else (seg[:cpos], seg[cpos:])
            def sub(m):
                fqn = m.group(1) + m.group(2)
                return m.group(2) if fqn in replace else m.group(0)
            new = PAT.sub(sub, head)
            if new != head:
                parts[k] = new + tail
                changed = True
            if cpos >= 0:
                # rest of the line after // is a comment: stop substituting
                parts = parts[:k + 1] + [''.join(parts[k + 1:])] if k + 1 < len(parts) else parts
                break
        if changed:
            lines[i] = ''.join(parts)
            n += 1
    need = sorted({f for f in replace.values() if f and f not in imports})
    out = '\n'.join(lines)
    if need:
        # insert into the non-static import block, keep it sorted
        block = re.findall(r'^import (?!static )[\w.*]+;\n', out, re.M)
        if block:
            allimps = sorted(set(block) | {'import %s;\n' % f for f in need})
            first = out.index(block[0])
            # remove old non-static imports
            for b in block:
                out = out.replace(b, '', 1)
            out = out[:first] + ''.join(allimps) + out[first:]
        else:
            static_block = re.findall(r'^import static [\w.*]+;\n', out, re.M)
            ins = ''.join('import %s;\n' % f for f in need)
            if static_block:
                last = out.index(static_block[-1]) + len(static_block[-1])
                out = out[:last] + '\n' + ins + out[last:]
            else:
                m = re.search(r'^package [\w.]+;\n', out, re.M)
                out = out[:m.end()] + '\n' + ins + out[m.end():]
    open(path, 'w', encoding='utf-8').write(out)
    return n


def normalize_imports(p):
    """Static imports sorted, a blank line, the others sorted, a blank line after."""
    s = open(p, encoding='utf-8').read()
    lines = s.split('\n')
    idx = [i for i, l in enumerate(lines) if l.startswith('import ')]
    if not idx:
        return
    a, b = idx[0], idx[-1]
    region = lines[a:b + 1]
    if any(l.strip() and not l.startswith('import ') for l in region):
        return
    st = sorted({l for l in region if l.startswith('import static ')})
    ns = sorted({l for l in region if l.startswith('import ') and not l.startswith('import static ')})
    new = st + ([''] if st and ns else []) + ns
    rest = lines[b + 1:]
    while rest and rest[0] == '':
        rest.pop(0)
    open(p, 'w', encoding='utf-8').write('\n'.join(lines[:a] + new + [''] + rest))

if __name__ == '__main__':
    total = 0
    for p in sys.argv[1:]:
        root = 'src/main/java' if '/main/java/' in p else 'src/test/java'
        root = p[:p.index(root) + len(root)]
        n = process(p, root)
        if n:
            normalize_imports(p)
        total += n
    print('lines changed', total)
