# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of mmscope's HTML pages (tests/html/*.sh).

  check.py page FILE [--ids a,b] [--svgs N] [--report-text TXT]
           [--compare-text TXT]
      FILE (a page, or the DOM Chromium dumped) has every id, at least N
      <svg>, nothing that fetches or runs (no script, link, iframe, object,
      embed; no src/href that is not a fragment; no url() or @import); with
      --report-text, the words of each report section are a run of the
      text report's (its title underlines left out), and together all of
      them; a section of its own markup (class "own": the kills) is
      held to the JSON instead (check.py kills), and its title's block
      of the text left out; with --compare-text, each
      row of the tables is the plain text table's row.
  check.py kills FILE REPORT.json
      FILE's kills section has a block per kill of the report's JSON
      .oom.kills[], in order, each block's time, killer and victim and
      its table's values (by data-key) those of the JSON's figures;
      without kills, a line saying so and no table.
  check.py png FILE MIN
      FILE is a PNG of more than MIN distinct pixel values.
"""
import html.parser
import json
import os
import re
import struct
import sys
import zlib


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.svgs, self.bad = set(), 0, []
        self.sections, self.rows = [], []
        self.depth, self.report_at, self.row, self.in_table = 0, None, None, 0
        self.in_style = False
        self.kv = False
        self.own_at, self.own_titles, self.own_h2 = None, [], False

    def handle_starttag(self, tag, attrs):
        self.depth += 1
        a = dict(attrs)
        if a.get('id'):
            self.ids.add(a['id'])
        if tag == 'svg':
            self.svgs += 1
        if tag in ('script', 'link', 'iframe', 'object', 'embed', 'img', 'base',
                   'frame', 'audio', 'video', 'source'):
            self.bad.append('<%s> element' % tag)
        for k, v in attrs:
            if k.startswith('on'):
                self.bad.append('event handler %s on <%s>' % (k, tag))
            if k in ('src', 'href', 'xlink:href', 'action', 'poster', 'srcset',
                     'data', 'background') and v is not None:
                if re.match(r'\s*(https?:)?//', v, re.I) or not v.startswith('#'):
                    self.bad.append('%s="%s" on <%s>' % (k, v, tag))
        if tag == 'style':
            self.in_style = True
        if tag == 'section' and 'own' in (a.get('class') or '').split():
            self.own_at = self.depth
        if tag == 'h2' and self.own_at is not None:
            self.own_h2 = True
            self.own_titles.append('')
        if tag == 'section' and 'report' in (a.get('class') or '').split():
            self.report_at = self.depth
            self.sections.append([])
        if tag == 'table':
            self.kv = 'kv' in (a.get('class') or '').split()
        if tag == 'tr' and not self.kv:
            self.row = []
        if tag in ('br', 'td', 'th', 'tr', 'pre', 'h2', 'h3') and self.report_at is not None:
            self.sections[-1].append(' ')

    def handle_endtag(self, tag):
        if tag == 'style':
            self.in_style = False
        if tag == 'th' and self.row is not None:
            self.row = None		# a header row
        if tag == 'tr' and self.row is not None:
            self.rows.append(' '.join(self.row).split())
            self.row = None
        if tag in ('td', 'th', 'tr', 'pre', 'h2', 'h3') and self.report_at is not None:
            self.sections[-1].append(' ')
        if tag == 'h2':
            self.own_h2 = False
        if tag == 'section' and self.own_at == self.depth:
            self.own_at = None
        if tag == 'section' and self.report_at == self.depth:
            self.report_at = None
        self.depth -= 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.depth -= 1

    def handle_data(self, data):
        if self.own_h2:
            self.own_titles[-1] += data
        if self.in_style and re.search(r'url\(|@import', data):
            self.bad.append('url() or @import in a style sheet')
        if self.report_at is not None:
            self.sections[-1].append(data)
        if self.row is not None:
            self.row.append(data)


def without(text, titles):
    """text less the blocks under those titles (a title is a line over a
    rule of dashes; its block runs to the next title)"""
    lines, out, skip = text.split('\n'), [], False
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r'-{20,}', lines[i + 1]):
            skip = line.strip() in titles
        if not skip:
            out.append(line)
    return '\n'.join(out)


def page(args):
    f = args[0]
    opts = dict(zip(args[1::2], args[2::2]))
    p = Page()
    p.feed(open(f, encoding='utf-8').read())
    p.close()
    err = ['%s: %s' % (f, b) for b in p.bad]
    for i in filter(None, opts.get('--ids', '').split(',')):
        if i not in p.ids:
            err.append('%s: no element with id "%s"' % (f, i))
    if p.svgs < int(opts.get('--svgs', 0)):
        err.append('%s: %d <svg>, expected %s or more' % (f, p.svgs, opts['--svgs']))
    if '--report-text' in opts:
        # the sections may come in another order than the text's (the
        # findings first): each must be a run of the text's words, and
        # together they must be all of them
        text = [w for w in without(open(opts['--report-text'], encoding='utf-8').read(),
                                   p.own_titles).split()
                if not re.fullmatch(r'-{20,}', w)]
        left, at = [''.join(w).split() for w in p.sections], 0
        while at < len(text):
            k = next((k for k, w in enumerate(left) if w and text[at:at + len(w)] == w), None)
            if k is None:
                near = max(left, key=lambda w: sum(a == b for a, b in zip(w, text[at:])))
                n = next((i for i, (a, b) in enumerate(zip(near, text[at:])) if a != b), 0)
                err.append('%s: no section of the page has the text report\'s words at word '
                           '%d: %r; nearest: %r' % (f, at + n, text[at + n:at + n + 6],
                                                    near[n:n + 6]))
                break
            at += len(left.pop(k))
        if at >= len(text) and any(left):
            err.append('%s: sections not in the text report: %r' % (f, [w[:4] for w in left]))
    if '--compare-text' in opts:
        # the plain table in one block (--width large enough): a header
        # line, then a line per row until a blank or "(N rows ..." line
        text = []
        for line in open(opts['--compare-text'], encoding='utf-8').read().split('\n')[1:]:
            if not line.strip() or line.startswith('('):
                break
            text.append(line.split())
        if p.rows != text:
            bad = next((i for i, (a, b) in enumerate(zip(p.rows, text)) if a != b), None)
            err.append('%s: %d table rows against %d text rows; first difference: %r '
                       'against %r' % (f, len(p.rows), len(text),
                                       p.rows[bad] if bad is not None else None,
                                       text[bad] if bad is not None else None))
    for e in err:
        print(e, file=sys.stderr)
    return 1 if err else 0


class Kills(html.parser.HTMLParser):
    """The kills section: its blocks (heading, headline, rows by data-key),
    tables and lines saying there is none."""
    def __init__(self, section_id):
        super().__init__(convert_charrefs=True)
        self.id, self.at, self.depth = section_id, None, 0
        self.blocks, self.tables, self.none, self.found = [], 0, [], False
        self.cell, self.key, self.into = None, None, None

    def handle_starttag(self, tag, attrs):
        self.depth += 1
        a = dict(attrs)
        if tag == 'section' and a.get('id') == self.id:
            self.at, self.found = self.depth, True
        if self.at is None:
            return
        cls = (a.get('class') or '').split()
        if tag == 'div' and 'kill' in cls:
            self.blocks.append({'id': a.get('id'), 'h3': '', 'headline': '', 'lines': []})
        if tag == 'table':
            self.tables += 1
        if tag == 'h3' and self.blocks:
            self.into = 'h3'
        if tag == 'p' and 'headline' in cls and self.blocks:
            self.into = 'headline'
        if tag == 'p' and 'none' in cls:
            self.none.append('')
            self.into = 'none'
        if tag == 'tr':
            self.key, self.cell = a.get('data-key'), []
        if tag == 'td' and self.cell is not None:
            self.cell.append('')

    def handle_endtag(self, tag):
        if tag in ('h3', 'p'):
            self.into = None
        if tag == 'tr' and self.cell is not None and self.blocks:
            self.blocks[-1]['lines'].append((self.key, self.cell[-1] if self.cell else ''))
            self.cell = None
        if tag == 'section' and self.at == self.depth:
            self.at = None
        self.depth -= 1

    def handle_data(self, data):
        if self.at is None:
            return
        if self.into == 'none':
            self.none[-1] += data
        elif self.into:
            self.blocks[-1][self.into] += data
        if self.cell:
            self.cell[-1] += data


def kills(args):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    import kills_expect
    f, report = args[0], json.load(open(args[1]))
    want = (report.get('oom') or {}).get('kills') or []
    k = Kills('kills')
    k.feed(open(f, encoding='utf-8').read())
    k.close()
    err = []
    if not k.found:
        err.append('no section with id "kills"')
    if len(k.blocks) != len(want):
        err.append('%d kill blocks, the JSON has %d kills' % (len(k.blocks), len(want)))
    for i, (b, w) in enumerate(zip(k.blocks, want)):
        m = re.match(r'(\d+\.\d+) s, (.*?): (.*)$', ' '.join(b['h3'].split()))
        if b['id'] != 'kill-%d' % (i + 1):
            err.append('kill %d: id %r' % (i + 1, b['id']))
        if not m or abs(float(m.group(1)) - w["t_s"]) > 5e-7 or m.group(2) != w['killer'] or \
                m.group(3) != kills_expect.who(w['victim']['comm'], w['victim']['pid']):
            err.append('kill %d: heading %r, the JSON\'s %s %s %s' % (
                i + 1, b['h3'], w['t_s'], w['killer'], w['victim']))
        if not b['headline'].strip():
            err.append('kill %d: no headline' % (i + 1))
        err += ['kill %d: %s' % (i + 1, e) for e in kills_expect.problems(w, b['lines'])]
    if not want and (k.tables or not any(re.search(r'No kill|not recorded', n)
                                         for n in k.none)):
        err.append('no kill: %d tables, lines %r (want none, and a line saying so)' %
                   (k.tables, k.none))
    for e in err:
        print('%s: %s' % (f, e), file=sys.stderr)
    print('%s: %d kills checked' % (f, len(k.blocks)))
    return 1 if err else 0


def png(args):
    data, at = open(args[0], 'rb').read(), 8
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        print('%s: not a PNG' % args[0], file=sys.stderr)
        return 1
    idat, w = b'', 0
    while at < len(data):
        n, kind = struct.unpack('>I4s', data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        at += 12 + n
    if not w or depth != 8 or ctype not in (2, 6):
        print('%s: not an 8-bit RGB(A) PNG' % args[0], file=sys.stderr)
        return 1
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, seen, pos = bytearray(stride), set(), 0
    # the top of the page is enough to tell a page from a blank one
    for _ in range(min(h, 480)):
        ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if len(seen) <= 4096:
            seen.update(bytes(line[i:i + bpp]) for i in range(0, stride, bpp * 7))
        prev = line
    print('%s: %dx%d, %s distinct pixel values' % (args[0], w, h,
                                                  len(seen) if len(seen) <= 4096 else 'over 4096'))
    if len(seen) <= int(args[1]):
        print('%s: only %d distinct pixel values: a blank page' % (args[0], len(seen)),
              file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit({'page': page, 'png': png, 'kills': kills}[sys.argv[1]](sys.argv[2:]))
