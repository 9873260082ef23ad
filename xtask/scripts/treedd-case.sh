#!/bin/bash
# treedd-case.sh CASEDIR TREEDD TAG [treedd options...]
# Reduce one suite case (a folder with one input and test.sh/oracle.sh) with the given treedd
# binary into out/<suite>/<case>/<TAG>/ and print: suite case tag in N chars N runs N wall N.
# The c-ice figures of docs/bench/runs/ (the passes, the presets) were made with this script, e.g.
#   treedd-case.sh ../shared/suites/c-ice/h8300-s500041-O1 target/release/treedd default --jobs 2
#   treedd-case.sh ../shared/suites/c-ice/h8300-s500041-O1 target/release/treedd smallest --jobs 2 --preset smallest
set -u
cdir=$1; bin=$(readlink -f "$2"); tag=$3; shift 3
name=$(basename "$cdir"); suite=$(basename "$(dirname "$cdir")")
oracle=$(ls "$cdir"/test.sh "$cdir"/oracle.sh 2>/dev/null | head -1)
input=$(ls "$cdir" | grep -v -E '^(test.sh|oracle.sh|PROVENANCE|trigger.c|README.*)$' | grep -v reduced | head -1)
d=out/$suite/$name/$tag
[ -d "$d" ] && { echo "$suite $name $tag skipped: $d exists"; exit 0; }
mkdir -p "$d" && cp "$cdir/$input" "$d/$input"
start=$(date +%s.%N)
timeout -s TERM "${LIMIT:-1200}" "$bin" --test "$oracle" "$d/$input" --stats "$d/stats.json" -q "$@" > "$d/log" 2>&1
end=$(date +%s.%N)
python3 - "$d" "$start" "$end" "$suite" "$name" "$tag" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + '/stats.json'))
print(sys.argv[4], sys.argv[5], sys.argv[6], 'in', d['input_chars'], 'chars', d['output_chars'],
      'runs', d['oracle_runs'], 'wall %.0f' % (float(sys.argv[3]) - float(sys.argv[2])),
      'interrupted' if d.get('interrupted') else '')
PY
