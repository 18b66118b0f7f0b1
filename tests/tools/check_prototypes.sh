#!/usr/bin/env bash
# check_prototypes.sh [path...] — no .c file declares an extern function
# prototype: a function used by another file is declared once, in the header
# that owns it (STYLE.md; issue 14 step 0c).  Scans every *.c under the
# given paths (default: src tests/unit).
#
# A hit is a file-scope declaration starting in column 0 (not static, not
# typedef) whose declarator is `name(` and that ends in ';' before any '{',
# joined across continuation lines; a definition's first line is not one.
# Prints "FAIL prototypes: file:line: declaration" per hit and a summary line
# "PASS prototypes" / "FAIL prototypes: N ..."; exits 1 on any hit.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
[ $# -gt 0 ] || set -- src tests/unit
hits=$(find "$@" -name '*.c' -print0 | sort -z | xargs -0 -r awk '
FNR == 1 { inside = 0; buf = "" }
function ends_decl(l) { return l ~ /;[ \t]*(\/\*.*\*\/[ \t]*)?$/ || l ~ /;[ \t]*\/\/.*$/ }
inside {
	buf = buf " " $0
	if ($0 ~ /\{/) { inside = 0; next }
	if (ends_decl($0)) { print FILENAME ":" start ": " buf; inside = 0 }
	next
}
/^(extern[ \t]+)?[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*]\(?\*?[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ &&
!/^(static|typedef|return|else|if|while|for|switch|case|goto|do)[ \t(]/ && !/[{=]/ {
	start = FNR; buf = $0
	if (ends_decl($0)) print FILENAME ":" start ": " buf
	else inside = 1
}' | tr -s ' \t' ' ')
if [ -z "$hits" ]; then
	echo "PASS prototypes"
	exit 0
fi
printf '%s\n' "$hits" | sed 's/^/FAIL prototypes: /'
echo "FAIL prototypes: $(printf '%s\n' "$hits" | wc -l) extern prototype(s) inside .c files; move each into the header that owns the function"
exit 1
