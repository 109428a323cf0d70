#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cut and flipped recordings (issue 2), driven by tests/malformed/truncate.sh.

usage: truncate.py MMSCOPE TD_LAYOUT CORPUS_DIR TMPDIR

Each fixture variant is cut at every region boundary of td-layout's map,
in the middle of each chunk and page payload and at ~100 spread offsets,
and each byte td-layout names ("F AT EXPECT KIND") is flipped. Per file:
  1    `mmscope dump` and `dump --stat` exit 1 with one "error: FILE:" line
  0    the byte is not used for events: exit 0, same --stat as the original
  any  either of the above (data bytes that may still decode)
A cut file must fail unless only unused regions (R ... 0) lie past the cut.
Python and not shell: the shell version spent 4 of every 5 CPU seconds
starting awk, od, dd and head around the 2,300 mmscope runs.
"""
import os
import subprocess
import sys

VARIANTS = ['tc-memcg-swap-v6-none', 'tc-memcg-swap-v7-none', 'tc-memcg-swap-v7-zstd',
            'memcg-swap-v7-zlib', 'memcg-swap-v6-none']


class Run:
    def __init__(self, mmscope):
        self.mmscope = mmscope
        self.npass = 0
        self.nfail = 0

    def fail(self, msg):
        print('FAIL: ' + msg, flush=True)
        self.nfail += 1

    def mm(self, args):
        """(exit status, stdout, stderr); a hang of 60 s is status 124."""
        try:
            r = subprocess.run([self.mmscope] + args, capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return 124, b'', b'timed out after 60 s\n'
        return r.returncode, r.stdout, r.stderr

    @staticmethod
    def one_error_line(err, path):
        """exactly one stderr line, "error: PATH: something" """
        text = err.decode(errors='replace')
        prefix = 'error: %s: ' % path
        return text.count('\n') == 1 and text.startswith(prefix) and len(text) > len(prefix) + 1

    def expect_error(self, name, path, args):
        rc, _, err = self.mm(args)
        lines = err.count(b'\n')
        show = err[:300].decode(errors='replace')
        if rc != 1:
            self.fail('%s: exit %d, expected 1 (%s): %s' % (name, rc, ' '.join(args), show))
        elif lines != 1:
            self.fail('%s: %d stderr lines, expected 1 (%s): %s' % (name, lines, ' '.join(args), show))
        elif not self.one_error_line(err, path):
            self.fail("%s: stderr is not 'error: %s: ...': %s" % (name, path, show))
        else:
            self.npass += 1

    def expect_ok(self, name, args):
        rc, out, err = self.mm(args)
        if rc != 0 or err:
            self.fail('%s: exit %d, expected 0 (%s): %s' %
                      (name, rc, ' '.join(args), err[:300].decode(errors='replace')))
            return None
        self.npass += 1
        return out

    def check(self, name, path, expect, ref):
        if expect == '1':
            self.expect_error(name, path, ['dump', path])
            self.expect_error(name + ' --stat', path, ['dump', '--stat', path])
        elif expect == '0':
            self.expect_ok(name, ['dump', path])
            out = self.expect_ok(name + ' --stat', ['dump', '--stat', path])
            # the first line names the file
            if out is not None and out.split(b'\n')[1:] != ref.split(b'\n')[1:]:
                self.fail("%s: --stat differs from the intact file's" % name)
        else:
            for args in (['dump'], ['dump', '--stat']):
                rc, _, err = self.mm(args + [path])
                if rc == 0 and not err:
                    self.npass += 1
                elif rc == 1 and self.one_error_line(err, path):
                    self.npass += 1
                else:
                    self.fail('%s (%s): exit %d: %s' % (name, ' '.join(args), rc,
                                                        err[:300].decode(errors='replace')))


def main():
    mmscope, layout_tool, corpus, tmp = sys.argv[1:5]
    run = Run(mmscope)
    for v in VARIANTS:
        src = os.path.join(corpus, v + '.dat')
        if not os.path.isfile(src):
            run.fail('missing fixture ' + src)
            continue
        data = open(src, 'rb').read()
        size = len(data)
        lay = subprocess.run([layout_tool, src], capture_output=True, text=True)
        if lay.returncode != 0:
            run.fail('%s: td-layout failed' % v)
            continue
        regions, flips = [], []
        for line in lay.stdout.splitlines():
            f = line.split()
            if f and f[0] == 'R':
                regions.append((int(f[1]), int(f[2]), f[3], f[4] if len(f) > 4 else ''))
            elif f and f[0] == 'F':
                flips.append((int(f[1]), f[2], f[3] if len(f) > 3 else ''))
        rc, ref, err = run.mm(['dump', '--stat', src])
        if rc != 0:
            run.fail('%s: the intact file does not read: %s' % (v, err.decode(errors='replace')))
            continue

        cuts = set()
        for start, length, _, kind in regions:
            cuts.add(start)
            if 'chunk-data' in kind or 'page-data' in kind:
                cuts.add(start + length // 2)
        for i in range(1, 100):
            cuts.add(size * i // 100 + i % 7)
        ncut = 0
        for at in sorted(c for c in cuts if 0 <= c < size):
            # only unused regions past the cut: the file still reads
            expect = '1' if any(used == '1' and start + length > at
                                for start, length, used, _ in regions) else '0'
            path = os.path.join(tmp, '%s-cut%d.dat' % (v, at))
            with open(path, 'wb') as out:
                out.write(data[:at])
            run.check('%s cut at %d' % (v, at), path, expect, ref)
            os.unlink(path)
            ncut += 1

        nflip = 0
        for at, expect, kind in flips:
            if at >= size:
                continue
            path = os.path.join(tmp, '%s-flip%d.dat' % (v, at))
            flipped = bytearray(data)
            flipped[at] ^= 0xff
            with open(path, 'wb') as out:
                out.write(flipped)
            run.check('%s flip %s at %d' % (v, kind, at), path, expect, ref)
            os.unlink(path)
            nflip += 1
        print('%s: %d cuts, %d flips' % (v, ncut, nflip), flush=True)
    print('%d passed, %d failed' % (run.npass, run.nfail))
    return 1 if run.nfail else 0


if __name__ == '__main__':
    sys.exit(main())
