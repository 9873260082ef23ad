#!/bin/bash
# ice-case.sh SEED OPT 'SIGNATURE' DIR: a real-crash case outside ../shared/suites, made like
# the c-ice cases (csmith 2.3.0 --no-packed-struct --max-funcs 3, preprocessed against the
# suite's gen/shim16) for an internal compiler error of h8300-hms-gcc -w -O<OPT> with another
# signature than the suite's. Writes DIR/input.c and DIR/oracle.sh (the suite's oracle with
# this signature; the "unable to generate reloads" diagnostic that belongs to a reload ICE is
# not counted as another error). Needs csmith, gcc-12 and gcc-h8300-hms.
set -u
[ $# -eq 4 ] || { echo "usage: $0 SEED OPT 'SIGNATURE' DIR" >&2; exit 2; }
seed=$1; opt=$2; sig=$3; dir=$4
here=$(cd "$(dirname -- "$0")" && pwd)
gen=$(readlink -f "$here/../../../shared/suites/c-ice/gen")
mkdir -p "$dir" && dir=$(readlink -f "$dir") || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && csmith --seed "$seed" --no-packed-struct --max-funcs 3 > raw.c) || exit 1
gcc -E -P -nostdinc -I "$gen/shim16" -I/usr/include/csmith "$tmp/raw.c" -o "$dir/input.c" || exit 1
cat > "$dir/oracle.sh" <<EOT
#!/bin/bash
# Exit 0 iff h8300-hms-gcc -w -O$opt -c prints "$sig", no other error,
# and the candidate passes the c-ice suite's gcc-12 guard. Made by xtask/scripts/ice-case.sh $seed.
set -u
[ \$# -eq 1 ] || { echo "usage: \$0 candidate.c" >&2; exit 2; }
cand=\$(readlink -f -- "\$1") && [ -f "\$cand" ] || exit 1
tmp=\$(mktemp -d --tmpdir oracle.XXXXXX) || exit 1
trap 'rm -rf "\$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "\$tmp" || exit 1
cp -- "\$cand" cand.c || exit 1
timeout -s KILL 60 gcc-12 -fsyntax-only -std=gnu99 -Wno-builtin-declaration-mismatch \\
  -Werror=implicit-function-declaration -Werror=implicit-int -Werror=return-type \\
  -Werror=incompatible-pointer-types -Werror=int-conversion -Werror=div-by-zero \\
  cand.c >/dev/null 2>&1 || exit 1
timeout -s KILL 120 h8300-hms-gcc -w -O$opt -c cand.c -o cand.o >out.txt 2>&1
grep -qF '$sig' out.txt || exit 1
grep -v 'internal compiler error' out.txt | grep -v 'unable to generate reloads for' | grep -q 'error:' && exit 1
exit 0
EOT
chmod +x "$dir/oracle.sh"
"$dir/oracle.sh" "$dir/input.c" || { echo "$0: seed $seed does not show the crash at -O$opt" >&2; exit 1; }
echo "$dir: $(wc -c < "$dir/input.c") bytes, oracle.sh finds it interesting"
