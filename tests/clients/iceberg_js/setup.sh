#!/usr/bin/env bash
# Installs iceberg-js (the npm package, pinned by package-lock.json) into a
# writable cache folder once, and prints that folder:
#   $FLOE_ICEBERG_JS_HOME, else ${XDG_CACHE_HOME:-$HOME/.cache}/floe-iceberg-js
# as ../shared/tools/interop/setup does for the interop tools; re-installs
# when the lockfile changes; safe to call from parallel tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=${FLOE_ICEBERG_JS_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/floe-iceberg-js}
stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
if [ "$(cat "$home/.stamp" 2>/dev/null)" != "$stamp" ]; then
	mkdir -p "$(dirname "$home")"
	exec 9>"$home.lock"
	flock 9
	if [ "$(cat "$home/.stamp" 2>/dev/null)" != "$stamp" ]; then
		command -v npm >/dev/null || { echo "iceberg-js setup: npm is missing" >&2; exit 1; }
		mkdir -p "$home"
		cp "$here/package.json" "$here/package-lock.json" "$home/"
		(cd "$home" && npm ci --no-audit --no-fund --loglevel=error >&2)
		echo "$stamp" >"$home/.stamp"
	fi
fi
echo "$home"
