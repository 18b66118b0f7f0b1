#!/usr/bin/env python3
"""http_doccheck.py DOC URL — run the curl examples of a doc (docs/http.md)
against a server and compare their output with what the doc shows.

An example is an indented code line starting with "$ curl" or "$ NAME=$(" ;
the indented lines after it, up to a blank line or the next "$ " line, are
its expected output.  Every example of the doc runs, in order, in one bash
(so variables such as a session id carry over), with
"http://127.0.0.1:5434" replaced by URL.  "$ floe ..." lines are not run.
Prints "ok N" or the first differences; exit status 1 on a difference.
"""
import subprocess
import sys


def examples(text):
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("    $ ") and (ln[6:].startswith("curl ") or
                                        (ln[6:].split("=")[0].isidentifier() and "=$(" in ln)):
            cmd = ln[6:]
            exp = []
            i += 1
            while i < len(lines) and lines[i].startswith("    ") and not lines[i].startswith("    $ "):
                exp.append(lines[i][4:])
                i += 1
            out.append((cmd, exp))
            continue
        i += 1
    return out


def main():
    doc, url = sys.argv[1], sys.argv[2]
    ex = examples(open(doc, encoding="utf-8").read())
    script = []
    for k, (cmd, _) in enumerate(ex):
        script.append("echo '@@@ %d'" % k)
        script.append(cmd.replace("http://127.0.0.1:5434", url))
    r = subprocess.run(["bash", "-c", "\n".join(script) + "\necho '@@@ end'"],
                       capture_output=True, text=True, timeout=300)
    parts = r.stdout.split("@@@ ")
    got = {}
    for p in parts[1:]:
        head, _, body = p.partition("\n")
        got[head.strip()] = body
    bad = 0
    for k, (cmd, exp) in enumerate(ex):
        want = "\n".join(exp).rstrip("\n")
        have = got.get(str(k), "<not run>").rstrip("\n")
        if want != have:
            bad += 1
            print("example %d: %s\n  shown: %r\n  got:   %r" % (k, cmd[:120], want, have))
    if r.stderr.strip():
        print("stderr:", r.stderr.strip()[:500])
    print("ok %d" % len(ex) if not bad else "%d of %d examples differ" % (bad, len(ex)))
    sys.exit(1 if bad else 0)


main()
