#!/bin/bash
# creduce-case.sh CASEDIR: C-Reduce 2.10 (Debian package creduce) with one worker on a c-ice
# case, through a wrapper that counts oracle runs; prints: case creduce chars N runs N wall N.
set -u
cdir=$(readlink -f "$1"); c=$(basename "$cdir")
d=$(readlink -f out)/c-ice/$c/creduce; rm -rf "$d"; mkdir -p "$d"; cd "$d" || exit 1
cp "$cdir/input.c" input.c
cat > test.sh <<EOT
#!/bin/sh
echo x >> $d/runs.log
exec $cdir/oracle.sh input.c
EOT
chmod +x test.sh
start=$(date +%s)
creduce --n 1 ./test.sh input.c > creduce.log 2>&1
end=$(date +%s)
echo "$c creduce chars $(python3 -c "print(sum(1 for ch in open('input.c').read() if not ch.isspace()))") runs $(wc -l < runs.log) wall $((end-start))"
