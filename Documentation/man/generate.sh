#!/bin/sh
# Regenerates Documentation/man/lux.1 from the command definitions with swift-argument-parser's
# generate-manual plugin, then turns the help text's blank lines into paragraph breaks and its indented lines
# (examples, the exit-status table) into literal displays, so `man` shows them as in `lux --help`.
#
#   Documentation/man/generate.sh            # from the package root; builds lux in debug mode first
#
# The test ManualPageTests fails when lux.1 lacks a subcommand or option that `lux` defines.
set -eu
cd "$(dirname "$0")/../.."
swift package generate-manual --configuration debug >/dev/null
generated=.build/plugins/GenerateManual/outputs/lux/lux.1
awk '
    /^$/ { if (literal) { print ".Ed"; literal = 0 } print ".Pp"; next }
    /^  / && !/^\./ {
        if (!literal) { print ".Bd -literal -offset indent"; literal = 1 }
        sub(/^  /, ""); print; next
    }
    { if (literal) { print ".Ed"; literal = 0 } print }
    END { if (literal) print ".Ed" }
' "$generated" | grep -v '^\.Dd ' | sed '2i .Dd $Mdocdate$' > Documentation/man/lux.1
echo "wrote Documentation/man/lux.1"
