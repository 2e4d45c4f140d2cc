#!/usr/bin/env python3
"""Summarise an `strace -f` log of firefox-rdp-mcp: for each process (thread
group), the system calls made after its seccomp filter was loaded, with the
error results. Used to derive and re-check the allowlists in
sandbox/policy.go.

usage: strace -f -qq -o TRACE firefox-rdp-mcp …; seccomp-trace.py TRACE…
"""
import re, sys, collections

start_re = re.compile(r'^(\d+)\s+(\w+)\((.*)$')
resume_re = re.compile(r'^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$')
ret_re = re.compile(r'\)\s+=\s+(-?\d+|\?|0x[0-9a-f]+)(?:\s+(E[A-Z0-9]+))?')

def complete_calls(path):
    pending = {}
    for raw in open(path, errors='replace'):
        raw = raw.rstrip('\n')
        m = resume_re.match(raw)
        if m:
            tid, name, rest = int(m.group(1)), m.group(2), m.group(3)
            head = pending.pop(tid, '')
            yield tid, name, head + rest
            continue
        m = start_re.match(raw)
        if not m:
            continue
        tid, name, rest = int(m.group(1)), m.group(2), m.group(3)
        if rest.endswith('<unfinished ...>'):
            pending[tid] = rest[:-len('<unfinished ...>')]
            continue
        yield tid, name, rest

def analyse(path):
    group, role = {}, {}
    sandboxed = set()
    calls = collections.defaultdict(collections.Counter)
    errs = collections.defaultdict(collections.Counter)
    for tid, name, rest in complete_calls(path):
        g = group.setdefault(tid, tid)
        r = ret_re.search(rest)
        ret = r.group(1) if r else None
        err = r.group(2) if r else None
        if name in ('clone', 'clone3', 'fork', 'vfork') and ret and ret.isdigit() and int(ret) > 0:
            child = int(ret)
            group[child] = g if 'CLONE_THREAD' in rest else child
        if name == 'execve' and ret == '0':
            role[g] = 'broker' if '__broker' in rest else ('selftest' if '__selftest' in rest else 'server')
        if name == 'seccomp' and 'SECCOMP_SET_MODE_FILTER' in rest and ret == '0':
            sandboxed.add(g)
            continue
        if g in sandboxed:
            calls[g][name] += 1
            if err:
                errs[g][(name, err)] += 1
    return sandboxed, role, calls, errs

union = collections.defaultdict(set)
for path in sys.argv[1:]:
    sandboxed, role, calls, errs = analyse(path)
    for g in sorted(sandboxed):
        label = role.get(g, 'server')
        union[label] |= set(calls[g])
        print(f"== {path}: pid {g} ({label}): {len(calls[g])} distinct syscalls after seccomp")
        for n, c in sorted(calls[g].items()):
            print(f"   {n:22s} {c}")
        if errs[g]:
            print("   errors returned:")
            for (n, e), c in sorted(errs[g].items()):
                print(f"   {n:22s} {e:12s} {c}")
for label, names in sorted(union.items()):
    print(f"== union {label}: {len(names)}: {' '.join(sorted(names))}")
