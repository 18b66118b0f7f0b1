#!/bin/sh
# Generates sqlstate.h from sqlstate.txt (see the header of that file).
set -e
echo "/* Generated from src/common/sqlstate.txt by gen_sqlstate.sh: do not edit. */"
echo "#ifndef FLOE_SQLSTATE_H"
echo "#define FLOE_SQLSTATE_H"
grep -v '^#' "$1" | awk 'NF >= 3 { printf "#define %-50s \"%s\"\n", $3, $1 }'
echo "#endif"
