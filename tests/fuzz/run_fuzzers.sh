#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs each on a seed corpus made of the project's own
# files (samples, test data, templates) and tests/fuzz/seeds; fails on the first crash, hang, leak
# or undefined behaviour, leaving the input under BUILD/artifacts.
# A run is the same test every time, on an idle or a loaded machine: the corpus is made afresh
# from the seeds (libFuzzer adds what it finds to it), the seed and the number of inputs per
# target are fixed, and no time limit cuts a run short. The inputs are enough that the last 20%
# of them add few new paths: each target prints how many (NEW lines of its log).
# PTOWB_FUZZ_SCALE multiplies the inputs for a longer local search, with a seed of its own.
#   run_fuzzers.sh SOURCE_DIR BUILD_DIR CLANGXX RUNTIME_SOURCES
set -euo pipefail
src=$1 build=$2 clangxx=$3 sources=$4
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/tests/fuzz" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$clangxx" \
  -DPTOWB_CORE_DIR="$src/core" -DPTOWB_RUNTIME_SOURCES="$sources" "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null

rm -rf "$build/corpus" "$build/artifacts"
seed() { # seed TARGET FILE...: copies files into the target's corpus under content-derived names
  local dir="$build/corpus/$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do [[ -f "$f" ]] && cp "$f" "$dir/$(sha1sum <"$f" | cut -c1-16)"; done
  return 0
}
shopt -s globstar nullglob
seed fuzz_op_json "$src"/projects/*/op.json "$src"/tests/data/**/op.json "$src"/resources/templates/*/op.json
seed fuzz_kernel "$src"/projects/*/kernel.py "$src"/tests/data/**/*.py "$src"/resources/templates/*/kernel.py
seed fuzz_reference "$src"/projects/*/reference.py "$src"/tests/data/**/reference.py "$src"/resources/templates/*/reference.py
seed fuzz_reference_cut "$src"/projects/*/reference.py "$src"/tests/data/**/reference.py "$src"/resources/templates/*/reference.py
seed fuzz_npy "$src"/tests/data/**/*.npy
seed fuzz_rule "$src"/tests/fuzz/seeds/rule/*
# Every rule of every sample description, one per seed file.
/usr/bin/python3 - "$build/corpus/fuzz_rule" "$src"/projects/*/op.json "$src"/tests/data/**/op.json <<'PY'
import hashlib, json, os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    try:
        op = json.load(open(path))
    except ValueError:
        continue
    rules = [o.get(k) for o in op.get('outputs', []) for k in ('shape', 'dtype')] + [c.get('check') for c in op.get('constraints', [])]
    for rule in rules:
        if isinstance(rule, str):
            open(os.path.join(out, hashlib.sha1(rule.encode()).hexdigest()[:16]), 'w').write(rule)
PY
# The reference checker's requests (a header line, then a sample's reference) and answers.
/usr/bin/python3 - "$build/corpus/fuzz_reference_protocol" "$src"/projects/*/op.json "$src"/tests/data/*/op.json <<'PY'
import hashlib, json, os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def save(text):
    open(os.path.join(out, hashlib.sha1(text.encode()).hexdigest()[:16]), 'w').write(text)
for path in sys.argv[2:]:
    try:
        op = json.load(open(path))
        source = open(os.path.join(os.path.dirname(path), op['reference']['file'])).read()
    except (ValueError, OSError, KeyError, TypeError):
        continue
    header = {'function': op['reference'].get('function', ''),
              'inputs': [{'name': i.get('name', ''), 'mutated': bool(i.get('mutated', False))} for i in op.get('inputs', [])],
              'params': [{'name': p.get('name', ''), 'type': p.get('type', 'int')} for p in op.get('parameters', [])],
              'outputs': [o.get('name', '') for o in op.get('outputs', [])]}
    save(json.dumps(header) + '\n' + source)
for code, line in (('reference.crash', 6), ('reference.limit', 1), ('reference.forbidden', 7)):
    save(json.dumps({'diagnostics': [{'line': line, 'col': 5, 'end_line': line, 'end_col': 6, 'severity': 'error',
                                      'code': code, 'message': 'compiling this statement crashed libtorch'}]}))
save(json.dumps({'diagnostics': []}))
PY
# And a few arrays of every kind the reader meets.
/usr/bin/python3 - "$build/corpus/fuzz_npy" <<'PY'
import numpy, os, sys
for k, a in enumerate([numpy.arange(12, dtype='<f4').reshape(3, 4), numpy.ones((2, 2), '<f2'), numpy.arange(5, dtype='<i8'),
                       numpy.array([True, False]), numpy.zeros((0, 3), '<f8'), numpy.asfortranarray(numpy.ones((2, 3), '<i4'))]):
    numpy.save(os.path.join(sys.argv[1], 'seed%d.npy' % k), a)
PY

mkdir -p "$build/artifacts"
scale=${PTOWB_FUZZ_SCALE:-1}
# Inputs per target: enough that the last 20% add about 6% or less of a target's new paths
# (measured three times or more each: op_json 45-61 of 1028-1078, rule 37-46 of 780-846, kernel
# 24-38 of 726-776, reference 4-15 of 466-495; npy, with about 100 paths in all, 0-3 and once 10),
# in two and a half to three minutes on a 2-core machine shared with other work. The counts differ
# a little between runs of the same seed: libFuzzer is not bit-for-bit reproducible here. The
# reference checker's cut and protocol targets are small and fast.
declare -A inputs=([fuzz_op_json]=160000 [fuzz_rule]=600000 [fuzz_kernel]=80000 [fuzz_reference]=100000
                   [fuzz_reference_cut]=6000 [fuzz_reference_protocol]=100000 [fuzz_npy]=1000000)
status=0
for target in fuzz_op_json fuzz_rule fuzz_kernel fuzz_reference fuzz_reference_cut fuzz_reference_protocol fuzz_npy; do
  runs=$((inputs[$target] * scale))
  echo "== $target: $(ls "$build/corpus/$target" | wc -l) seeds, $runs inputs, seed $scale"
  started=$SECONDS
  # -timeout is per input: a generous one, since a loaded machine slows every input alike.
  if ! "$build/$target" -seed="$scale" -runs="$runs" -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
      -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 "$build/corpus/$target" 2>"$build/$target.log"; then
    echo "FAIL $target: see $build/$target.log and $build/artifacts"
    tail -40 "$build/$target.log"
    status=1
  else
    # "#N NEW ..." is input N adding a path: how many did, in all and in the last 20%.
    awk -v runs="$runs" '$2 == "NEW" { n = substr($1, 2) + 0; all++; if (n > runs * 0.8) late++ }
      END { printf "   %d new paths, %d of them in the last 20%% of the inputs\n", all, late }' "$build/$target.log"
    grep -E "^stat::number_of_executed_units|^stat::slowest_unit_time_sec" "$build/$target.log" | sed "s/^/   /"
    echo "PASS $target ($((SECONDS - started)) s)"
  fi
done
exit $status
