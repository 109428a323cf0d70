#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The bash completion the build makes (completion/mmscope, installed to
# $(datadir)/bash-completion/completions) is what `mmscope completion bash`
# prints, and completes, when run in bash with COMP_WORDS/COMP_CWORD set:
# every subcommand of `mmscope --help`, every long option of each command's
# --help, every event group of `record --help` (in comma lists too), every
# section of `report --help`, the codecs, and file names.
. "${top_srcdir:-.}/tests/lib.sh"

command -v bash >/dev/null || skip "bash is not installed"
script="$top_builddir/completion/mmscope"
[ -f "$script" ] || { fail "the build made no $script"; finish; }
"$MMSCOPE" completion bash >"$scratch/now" || fail "mmscope completion bash failed"
cmp -s "$script" "$scratch/now" || fail "$script differs from 'mmscope completion bash'"
"$MMSCOPE" completion zsh >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q '^error: ' "$scratch/err" || fail "completion zsh: not a usage error"

# comp WORD...: what the script offers for the last word, one a line, sorted
cat >"$scratch/comp.bash" <<'EOF'
set -u
. "$1"; shift
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
_mmscope mmscope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort -u
EOF
comp() { (cd "$scratch/files" && bash "$scratch/comp.bash" "$script" mmscope "$@"); }
mkdir -p "$scratch/files/sub" && : >"$scratch/files/run.dat" && : >"$scratch/files/rest.txt"

# want WHAT LIST-FILE WORD...: every line of LIST-FILE is offered
want() {
	what=$1 list=$2; shift 2
	comp "$@" >"$scratch/got" 2>"$scratch/cerr" || { fail "$what: bash failed: $(cat "$scratch/cerr")"; return; }
	[ -s "$scratch/cerr" ] && fail "$what: bash said: $(head -3 "$scratch/cerr")"
	sort -u "$list" | comm -23 - "$scratch/got" >"$scratch/missing"
	if [ -s "$list" ] && [ ! -s "$scratch/missing" ]; then
		ok "$what: all $(wc -l <"$list") offered"
	else
		fail "$what: not offered: $(tr '\n' ' ' <"$scratch/missing")(list: $(wc -l <"$list"))"
	fi
}
# exactly WHAT WORDS WORD...: the script offers these words, no more
exactly() {
	what=$1 words=$2; shift 2
	got=$(comp "$@" | tr '\n' ' ')
	[ "$got" = "$words " ] && ok "$what: $words" || fail "$what: got '$got', want '$words'"
}

"$MMSCOPE" --help | awk '/^commands:/ {on = 1; next} on && NF {print $1} on && !NF {exit}' \
	>"$scratch/cmds"
want "subcommands" "$scratch/cmds" ""
want "mmscope help CMD" "$scratch/cmds" help ""
exactly "mmscope re" "record recover report" re
exactly "mmscope --v" "--version" --v

while read -r c; do
	"$MMSCOPE" "$c" --help | grep -Eo -- '--[a-z][a-z-]+' | sort -u >"$scratch/opts"
	want "$c options" "$scratch/opts" "$c" --
done <"$scratch/cmds"

"$MMSCOPE" record --help | awk '/^Event groups:/ {on = 1; next} on && NF {print $1}' \
	>"$scratch/groups"
echo none >>"$scratch/groups"
want "record -g groups" "$scratch/groups" record -g ""
want "record --groups groups" "$scratch/groups" record --groups ""
sed 's/^/kswapd,/' "$scratch/groups" >"$scratch/groups2"
want "record -g kswapd,GROUP" "$scratch/groups2" record -g kswapd,
exactly "record --groups=kswapd,comp" "kswapd,compaction" record --groups = kswapd,comp

"$MMSCOPE" report --help | awk '/^sections/ {on = 1; next} on && /^  [a-z]/ {print $1}' \
	>"$scratch/sections"
want "report --section" "$scratch/sections" report --section ""
want "report -s" "$scratch/sections" report -s ""
exactly "report --format" "html json text" report --format ""
exactly "compare --format" "html json text" compare --format ""
exactly "compare --dialect" "mmtests plain" compare --dialect ""
exactly "convert --compression" "none zlib zstd" convert --compression ""
exactly "convert --file-version" "6 7" convert --file-version ""
exactly "report -w N: no guess" "" report -w ""

# values whose tables are private to their commands: the words the
# commands' own errors list (a chart, schema or trigger added there and
# not here fails)
errlist() {	# the "(a, b or c)" list of the error of: mmscope ARGS...
	"$MMSCOPE" "$@" 2>&1 >/dev/null | sed -n '1s/.*(\(.*\))$/\1/p' |
		sed 's/ or /, /g' | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$'
}
errlist plot --what bogus -o "$scratch/x.svg" "$top_srcdir/samples/compaction-6.18.dat" \
	>"$scratch/charts"
want "plot --what charts" "$scratch/charts" plot --what ""
sed 's/^/stalls,/' "$scratch/charts" >"$scratch/charts2"
want "plot -w stalls,CHART" "$scratch/charts2" plot -w stalls,
errlist export --schema bogus >"$scratch/schemas"
want "export --schema" "$scratch/schemas" export --schema ""
exactly "export --format" "csv jsonl" export --format ""
# a trigger that needs a value is offered as NAME\> (quoted for the shell)
errlist record --trigger bogus -o "$scratch/x.dat" -- true | sed 's/>.*/\\>/' >"$scratch/trig"
[ "$(wc -l <"$scratch/trig")" -gt 5 ] || fail "record --trigger bogus lists $(wc -l <"$scratch/trig") triggers"
want "record --trigger" "$scratch/trig" record --trigger ""
exactly "record --trigger psi" 'psi-some\>' record --trigger psi
exactly "tui --live --trigger" 'oom' tui --live --trigger oo
# pasted into bash, the completed word and a value are one argument
printf 'set -- %s20\nprintf "%%s|" "$@"\n' "$(comp record --trigger psi)" >"$scratch/paste.sh"
[ "$(cd "$scratch/files" && bash ../paste.sh)" = 'psi-some>20|' ] && [ ! -e "$scratch/files/20" ] &&
	ok "record --trigger psi-some\\>20 is one argument in bash" ||
	fail "completed trigger and value: '$(bash "$scratch/paste.sh")'"
exactly "report FILE" "rest.txt run.dat" report r
exactly "convert -o FILE" "rest.txt run.dat" convert -o r
exactly "record --spool DIR" "sub" record --spool ""
echo echo >"$scratch/echo"
want "record -- COMMAND: commands" "$scratch/echo" record -- ech
exactly "record -- COMMAND ARG: files" "rest.txt run.dat" record -- ls r
exactly "tui --live takes record's options" "--groups" tui --live --gr
exactly "tui alone does not" "" tui --gr
exactly "tui --live -g" "kswapd" tui --live -g ksw
finish
