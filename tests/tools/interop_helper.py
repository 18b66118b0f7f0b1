#!/usr/bin/env python3
"""interop_helper.py — data handling for tests/suites/interop.sh.

Subcommands (all print a reason on stdout and exit 1 on a mismatch):

  latest-metadata TABLE_DIR
      The current metadata file of an Iceberg table folder: the file named by
      metadata/version-hint.text|txt if present and usable, else the highest
      NNNNN-*.metadata.json / vN.metadata.json.

  compare-icebird COLUMN_DEFS FLOE_CSV ICEBIRD_CSV
      Compare floe's rows (COPY ... TO STDOUT WITH (FORMAT csv, HEADER)) with
      `iceberg-read --csv` output (JSON line, header, rows).  COLUMN_DEFS is
      the CREATE TABLE column list ("id integer, n numeric(9,2)").  Cells are
      normalised per type to what both sides can express (icebird prints
      NULL and '' alike, dates/timestamps as JS ISO strings with
      milliseconds, numbers as JS doubles).

  external-cases SHARED
      One tab-separated line per table of SHARED/testdata/iceberg-tables
      whose current snapshot is readable and has only Parquet data
      (position/equality delete files and deletion vectors included), plus
      one line per earlier metadata file whose current snapshot has delete
      files (key <table>__<metadata file stem>; time travel by metadata file):
        key  table_dir  metadata_json  expected_rows  expected_json  maps
      where maps is "from=to|from=to" (from MANIFEST.md, to made absolute).

  compare-expected EXPECTED_JSON METADATA_NAME FLOE_CSV
      Compare floe's rows with the expected rows of the current snapshot of
      METADATA_NAME in EXPECTED_JSON (format in its value_format field).
      Tables with more than 500 rows list only a prefix: then only the count
      is compared.
"""
import json
import math
import os
import re
import struct
import sys


# ------------------------------------------------------------------ CSV

def parse_csv(text):
    """RFC 4180 CSV -> list of rows; an unquoted empty field is None (NULL)."""
    rows, row, i, n = [], [], 0, len(text)
    if n == 0:
        return rows
    while i <= n:
        if i < n and text[i] == '"':
            i += 1
            buf = []
            while i < n:
                c = text[i]
                if c == '"':
                    if i + 1 < n and text[i + 1] == '"':
                        buf.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                buf.append(c)
                i += 1
            field = ''.join(buf)
            while i < n and text[i] not in ',\n\r':
                i += 1
        else:
            j = i
            while j < n and text[j] not in ',\n\r':
                j += 1
            field = text[i:j] if j > i else None
            i = j
        row.append(field)
        if i >= n:
            rows.append(row)
            break
        if text[i] == ',':
            i += 1
            if i == n:
                row.append(None)
                rows.append(row)
                break
            continue
        if text[i] == '\r' and i + 1 < n and text[i + 1] == '\n':
            i += 1
        i += 1
        rows.append(row)
        row = []
        if i >= n:
            break
    return rows


# Set when floe's rows come from the shell's unaligned output (-A -F US):
# NULL and '' look alike there, so an empty cell matches either.
LOOSE_NULL = False


def read_floe_csv(path):
    """floe's rows: CSV with a header, or (name ending .unaligned) psql-style
    unaligned output with fields separated by 0x1f, a header and a footer."""
    global LOOSE_NULL
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    if path.endswith('.unaligned'):
        LOOSE_NULL = True
        lines = text.split('\n')
        while lines and (lines[-1] == '' or re.fullmatch(r'\(\d+ rows?\)', lines[-1])):
            lines.pop()
        rows = [[c if c != '' else None for c in ln.split('\x1f')] for ln in lines]
    else:
        rows = parse_csv(text)
    if not rows:
        return [], []
    return rows[0], rows[1:]


# ------------------------------------------------------------------ normalising

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def to_float(s):
    s = s.strip()
    low = s.lower()
    if low in ('nan',):
        return float('nan')
    if low in ('infinity', 'inf', '+infinity'):
        return float('inf')
    if low in ('-infinity', '-inf'):
        return float('-inf')
    return float(s)


def floats_equal(a, b, single=False, rel=0.0):
    if math.isnan(a) and math.isnan(b):
        return True
    if single:
        a, b = f32(a), f32(b)
    if a == b:
        return True
    return rel > 0 and math.isclose(a, b, rel_tol=rel)


TS_RE = re.compile(r'^(-?\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)?$')


def ts_millis_text(s):
    """'2024-01-02 03:04:05.123456[+00]' or ISO '...T...Z' -> 'YYYY-MM-DDTHH:MM:SS.mmm'."""
    m = TS_RE.match(s.strip())
    if not m:
        return s
    y, mo, d, h, mi, se, frac, zone = m.groups()
    frac = (frac or '') + '000'
    if zone and zone not in ('Z', '+00', '+00:00', '+0000'):
        return s  # only UTC is expected here
    return '%s-%s-%sT%s:%s:%s.%s' % (y, mo, d, h, mi, se, frac[:3])


def time_micros(s):
    s = s.strip()
    if re.fullmatch(r'-?\d+', s):
        return int(s)
    m = re.fullmatch(r'(\d\d):(\d\d):(\d\d)(?:\.(\d+))?', s)
    if not m:
        return s
    h, mi, se, frac = m.groups()
    frac = ((frac or '') + '000000')[:6]
    return ((int(h) * 60 + int(mi)) * 60 + int(se)) * 1000000 + int(frac)


def hexish(s):
    s = s.strip().lower()
    if s.startswith('\\x'):
        s = s[2:]
    return s.replace('-', '')


def base_type(t):
    t = t.strip().lower()
    t = re.sub(r'\(.*\)', '', t).strip()
    aliases = {
        'int2': 'smallint', 'int4': 'integer', 'int': 'integer', 'int8': 'bigint',
        'float4': 'real', 'float8': 'double precision', 'double': 'double precision',
        'float': 'double precision', 'decimal': 'numeric', 'bool': 'boolean',
        'varchar': 'text', 'character varying': 'text', 'char': 'text', 'character': 'text',
        'timestamp without time zone': 'timestamp', 'timestamp with time zone': 'timestamptz',
        'time without time zone': 'time',
    }
    return aliases.get(t, t)


def norm_icebird(t, floe, ice):
    """True if floe's text and icebird's CSV text denote the same value of type t."""
    bt = base_type(t)
    if floe is None:
        floe = ''
    if ice is None:
        ice = ''
    if bt == 'bytea' and floe == '\\x':
        floe = ''  # empty bytea: icebird prints it like NULL
    if floe == '' or ice == '':
        return floe == ice or (bt in ('text',) and floe == ice)
    try:
        if bt in ('smallint', 'integer', 'bigint'):
            return int(floe) == int(ice)
        if bt == 'boolean':
            return {'t': 'true', 'f': 'false'}.get(floe, floe) == ice
        if bt == 'real':
            return floats_equal(to_float(floe), to_float(ice), single=True)
        if bt == 'double precision':
            return floats_equal(to_float(floe), to_float(ice))
        if bt == 'numeric':
            return floats_equal(to_float(floe), to_float(ice), rel=1e-15)
        if bt == 'date':
            return floe == ice[:10]
        if bt in ('timestamp', 'timestamptz'):
            return ts_millis_text(floe) == ts_millis_text(ice)
        if bt == 'time':
            return time_micros(floe) == time_micros(ice)
        if bt == 'bytea' and not ice.startswith('\\x'):
            # icebird decodes unannotated BYTE_ARRAY as UTF-8 text (lossy)
            return bytes.fromhex(hexish(floe)).decode('utf-8', 'replace') == ice
        if bt in ('bytea', 'uuid'):
            return hexish(floe) == hexish(ice)
    except (ValueError, OverflowError):
        return False
    return floe == ice


def cmd_compare_icebird(defs, floe_csv, ice_csv):
    types = [d.strip().split(None, 1)[1] for d in re.split(r',(?![^()]*\))', defs)]
    header, frows = read_floe_csv(floe_csv)
    with open(ice_csv, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n', 1)
    irows = parse_csv(lines[1]) if len(lines) > 1 else []
    irows = irows[1:] if irows else []  # drop the header
    irows = [r for r in irows if r != [None]]
    if len(types) != len(header):
        print('floe returned %d columns, the case declares %d types' % (len(header), len(types)))
        return 1
    if len(frows) != len(irows):
        print('floe has %d rows, iceberg-read (icebird) has %d' % (len(frows), len(irows)))
        return 1
    unmatched = list(irows)
    for fr in frows:
        hit = None
        for k, ir in enumerate(unmatched):
            if len(ir) == len(fr) and all(norm_icebird(types[c], fr[c], ir[c]) for c in range(len(fr))):
                hit = k
                break
        if hit is None:
            print('floe row %s has no equal row in iceberg-read output' % fr)
            print('  iceberg-read rows (first 5): %s' % unmatched[:5])
            return 1
        unmatched.pop(hit)
    return 0


# ------------------------------------------------------------------ external tables

def latest_metadata(table_dir):
    mdir = os.path.join(table_dir, 'metadata')
    names = [n for n in os.listdir(mdir) if n.endswith('.metadata.json') or n.endswith('.metadata.json.gz')
             or re.match(r'.*\.gz\.metadata\.json$', n)]
    for hint in ('version-hint.text', 'version-hint.txt'):
        p = os.path.join(mdir, hint)
        if os.path.exists(p):
            with open(p) as f:
                h = f.read().strip()
            if h:
                for cand in ('v%s.metadata.json' % h, h + '.metadata.json', h):
                    if cand in names:
                        return os.path.join(mdir, cand)

    def num(n):
        m = re.match(r'^v?(\d+)[-.]', n)
        return int(m.group(1)) if m else -1
    if not names:
        return None
    return os.path.join(mdir, max(names, key=lambda n: (num(n), n)))


def manifest_maps(manifest_path):
    maps, current = {}, None
    with open(manifest_path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^- \*\*Table\*\* `([^`]+)`', line)
            if m:
                current = m.group(1)
                continue
            if current and 'Path prefixes found' in line:
                part = line.split('map to:', 1)[-1]
                maps[current] = re.findall(r'`([^`]+)` -> `([^`]+)`', part)
    return maps


def cmd_external_cases(shared):
    testdata = os.path.join(os.path.abspath(shared), 'testdata')
    root = os.path.join(testdata, 'iceberg-tables')
    maps = manifest_maps(os.path.join(root, 'MANIFEST.md'))
    out = []
    for dirpath, _, files in os.walk(os.path.join(root, 'expected')):
        for fn in sorted(files):
            if not fn.endswith('.expected.json'):
                continue
            ej = os.path.join(dirpath, fn)
            with open(ej) as f:
                d = json.load(f)
            table = d['table']
            tdir = os.path.join(testdata, table)
            if not os.path.isdir(os.path.join(tdir, 'metadata')):
                continue
            meta = latest_metadata(tdir)
            if not meta:
                continue
            mname = os.path.basename(meta)
            mf = [m for m in d['metadata_files'] if m['metadata_file'] == mname]
            if not mf:
                continue
            mf = mf[0]
            cur = mf.get('current_snapshot_id')
            snaps = [s for s in mf.get('snapshots', []) if s['snapshot_id'] == cur]
            if not snaps:
                continue  # empty table or no current snapshot
            s = snaps[0]
            if s.get('expected_error'):
                continue
            if any(fmt.lower() != 'parquet' for fmt in s.get('data_file_formats', [])):
                continue
            pairs = []
            for a, b in maps.get(table, []):
                b = os.path.join(testdata, b)
                if a.endswith('/') and not b.endswith('/'):
                    b += '/'
                pairs.append('%s=%s' % (a, b))
            key = re.sub(r'[^a-z0-9]+', '_', table[len('iceberg-tables/'):].lower()).strip('_')
            out.append('\t'.join([key, tdir, meta, str(s.get('expected_row_count', '')), ej,
                                  '|'.join(pairs)]))
            # earlier snapshots with delete files (floe has no AS OF yet: the
            # older metadata file whose current snapshot it is is registered)
            seen = {cur}
            for m in d['metadata_files']:
                mcur = m.get('current_snapshot_id')
                if m['metadata_file'] == mname or mcur in seen:
                    continue
                ms = [x for x in m.get('snapshots', []) if x['snapshot_id'] == mcur]
                if not ms or ms[0].get('expected_error') or not (
                        ms[0].get('position_delete_files') or ms[0].get('deletion_vectors') or
                        ms[0].get('equality_delete_files')):
                    continue
                if any(fmt.lower() != 'parquet' for fmt in ms[0].get('data_file_formats', [])):
                    continue
                mpath = os.path.join(tdir, 'metadata', m['metadata_file'])
                if not os.path.exists(mpath):
                    continue
                seen.add(mcur)
                stem = re.sub(r'[^a-z0-9]+', '_', m['metadata_file'].lower().replace('.metadata.json', ''))
                out.append('\t'.join([key + '__' + stem, tdir, mpath,
                                      str(ms[0].get('expected_row_count', '')), ej, '|'.join(pairs)]))
    for line in sorted(out):
        print(line)
    return 0


def scalar(v):
    return v is None or isinstance(v, (bool, int, float, str))


def eq_expected(floe, exp):
    if LOOSE_NULL and floe is None and exp in (None, ''):
        return True
    if exp is None:
        return floe is None
    if floe is None:
        return False
    if isinstance(exp, bool):
        return {'t': True, 'true': True, 'f': False, 'false': False}.get(floe.lower()) == exp
    if isinstance(exp, int):
        return floe == str(exp)
    if isinstance(exp, float):
        try:
            x = to_float(floe)
        except ValueError:
            return False
        return floats_equal(x, exp) or floats_equal(x, exp, single=True)
    if floe == exp:
        return True
    if floe.startswith('\\x') and floe[2:] == exp:
        return True
    return False


def cmd_compare_expected(ej, mname, floe_csv):
    with open(ej) as f:
        d = json.load(f)
    mf = [m for m in d['metadata_files'] if m['metadata_file'] == mname][0]
    s = [x for x in mf['snapshots'] if x['snapshot_id'] == mf['current_snapshot_id']][0]
    want = s.get('expected_row_count')
    header, frows = read_floe_csv(floe_csv)
    if want is not None and len(frows) != want:
        print('floe returned %d rows, expected %d' % (len(frows), want))
        return 1
    rows = s.get('rows')
    if rows is None or len(rows) != len(frows):
        return 0  # only a prefix is listed: the count was the check
    if not all(scalar(v) for r in rows for v in r.values()):
        return 0  # nested values: compared by count only
    unmatched = list(rows)
    for fr in frows:
        rec = dict(zip(header, fr))
        hit = None
        for k, er in enumerate(unmatched):
            if set(er.keys()) <= set(rec.keys()) and all(eq_expected(rec[c], er[c]) for c in er):
                hit = k
                break
        if hit is None:
            print('floe row %s matches no expected row; expected (first 3): %s'
                  % (json.dumps(rec), json.dumps(unmatched[:3])))
            return 1
        unmatched.pop(hit)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == 'latest-metadata' and len(argv) == 3:
        m = latest_metadata(argv[2])
        if not m:
            return 1
        print(m)
        return 0
    if len(argv) == 5 and argv[1] == 'compare-icebird':
        return cmd_compare_icebird(argv[2], argv[3], argv[4])
    if len(argv) == 3 and argv[1] == 'external-cases':
        return cmd_external_cases(argv[2])
    if len(argv) == 5 and argv[1] == 'compare-expected':
        return cmd_compare_expected(argv[2], argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
