# Helpers of the whole-process benchmark scripts (sourced; they set `work` and `runs` first):
#   compare NAME A-COMMAND B-COMMAND   alternates A and B `runs` times, prints Markdown rows of medians.
# One timed run: prints "seconds peak-KB".
timed() { /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1 && cat "$work/time"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# compare NAME A-COMMAND B-COMMAND: alternates the two, prints a table row per command.
compare() {
    local name="$1" a="$2" b="$3"
    : >"$work/a" && : >"$work/b"
    for _ in $(seq "$runs"); do
        rm -f "$work"/out.*
        timed bash -c "$a" >>"$work/a"
        rm -f "$work"/out.*
        timed bash -c "$b" >>"$work/b"
    done
    local ta tb ma mb
    ta=$(cut -d' ' -f1 "$work/a" | median) && tb=$(cut -d' ' -f1 "$work/b" | median)
    ma=$(cut -d' ' -f2 "$work/a" | median) && mb=$(cut -d' ' -f2 "$work/b" | median)
    echo "| $name | \`$a\` | $ta s | $((${ma%.*} / 1024)) MB |"
    echo "| $name | \`$b\` | $tb s | $((${mb%.*} / 1024)) MB |"
    echo "| $name | ratio lux / peer | $(echo "scale=2; $ta / $tb" | bc) | |"
}
