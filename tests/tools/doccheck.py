#!/usr/bin/env python3
"""doccheck: run the shell sessions shown in the docs and compare their output.

A "session" is a Markdown code block (lines indented by four spaces) that holds
at least one line starting with the shell prompt `floe=> `.  Each prompt line
(with its `floe-> ` continuation lines) is one input; the lines up to the next
prompt are the output the doc shows for it.  Lines before the first prompt
(e.g. `$ build/floe` and the banner) are not checked.

Every session runs (TZ=UTC) in a fresh warehouse through the floe shell (stdin, its
notices and errors merged into the output as an interactive psql shows them),
and its output must equal the doc's, line for line, after trailing blanks are
dropped.  A doc can opt out of one session by putting the HTML comment
`<!-- doccheck: skip -->` on the line before the block (say why next to it).
`\\q` inputs end the session.

Usage: doccheck.py FLOE_BIN FILE.md...   Prints one "PASS doc: file:line" /
"FAIL doc: file:line: ..." line per session and exits 1 if any failed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

PROMPT = "floe=> "
CONT = ("floe-> ", "floe'> ", 'floe"> ', "floe$> ", "floe*> ", "floe(> ")
MARK = "@@doccheck-step@@"


def blocks(path):
    """Yield (line number, [lines]) for each 4-space-indented block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i, n = 0, len(lines)
    prev = ""
    while i < n:
        if lines[i].startswith("    ") and (i == 0 or lines[i - 1].strip() == ""
                                            or lines[i - 1].startswith("    ")):
            start = i
            body = []
            while i < n and (lines[i].startswith("    ") or
                             (lines[i].strip() == "" and i + 1 < n and
                              lines[i + 1].startswith("    "))):
                body.append(lines[i][4:] if lines[i].startswith("    ") else "")
                i += 1
            if "doccheck: skip" not in prev:
                yield start + 1, body
            prev = ""
            continue
        if lines[i].strip():
            prev = lines[i]
        i += 1


def steps(body):
    """Split a session block into [(input, [expected lines])]."""
    out = []
    cur = None
    for line in body:
        if line.startswith(PROMPT):
            cur = [line[len(PROMPT):], []]
            out.append(cur)
        elif cur is not None and line.startswith(CONT) and not cur[1]:
            cur[0] += "\n" + line[len(CONT[0]):]
        elif cur is not None:
            cur[1].append(line)
    return out


def norm(lines):
    lines = [l.rstrip() for l in lines]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def run(floe, sess):
    wh = tempfile.mkdtemp(prefix="floe-doccheck.")
    try:
        script = []
        for inp, _ in sess:
            if inp.strip() == "\\q":
                break
            script.append(inp)
            script.append("\\echo " + MARK)
        proc = subprocess.run([floe, "-D", wh, "-v", "ON_ERROR_STOP=0"], input="\n".join(script) + "\n",
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=120, cwd=wh,
                              env=dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8"))
        got = proc.stdout.split("\n")
        outs, cur = [], []
        for line in got:
            if line == MARK:
                outs.append(cur)
                cur = []
            else:
                cur.append(line)
        return outs
    finally:
        shutil.rmtree(wh, ignore_errors=True)


def main():
    floe = os.path.abspath(sys.argv[1])
    nfail = 0
    for path in sys.argv[2:]:
        for lineno, body in blocks(path):
            sess = steps(body)
            if not sess:
                continue
            where = "%s:%d" % (os.path.relpath(path), lineno)
            try:
                outs = run(floe, sess)
            except subprocess.TimeoutExpired:
                print("FAIL doc: %s: the session did not finish in 120 s" % where)
                nfail += 1
                continue
            bad = None
            for k, (inp, exp) in enumerate(sess):
                if inp.strip() == "\\q":
                    break
                got = norm(outs[k]) if k < len(outs) else ["<no output: the shell stopped>"]
                if got != norm(exp):
                    bad = (inp, norm(exp), got)
                    break
            if bad:
                nfail += 1
                print("FAIL doc: %s: `%s`" % (where, bad[0].replace("\n", " ")))
                print("    the doc shows:")
                for l in bad[1]:
                    print("      | " + l)
                print("    floe printed:")
                for l in bad[2]:
                    print("      | " + l)
            else:
                print("PASS doc: %s" % where)
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
