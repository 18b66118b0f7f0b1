"""floe_serve.py: start `floe serve` from a Python test client.

    start(floe, wh, env=None) -> (Popen, conninfo)
        runs FLOE serve -D WH --port 0 (environment ENV, default ours),
        waits for its "listening on 127.0.0.1 port N" banner and returns the
        process and a libpq conninfo for it (user t, dbname floe,
        connect_timeout 5).  RuntimeError if it exits first.

The shell suites' counterpart is tests/tools/floe_server.sh floe_serve.
"""
import re
import subprocess


def start(floe, wh, env=None):
    p = subprocess.Popen([floe, "serve", "-D", wh, "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=env)
    for line in p.stdout:
        m = re.search(r"listening on 127\.0\.0\.1 port (\d+)", line)
        if m:
            return p, "host=127.0.0.1 port=%s user=t dbname=floe connect_timeout=5" % m.group(1)
    raise RuntimeError("floe serve did not start")
