#!/usr/bin/env bash
# Fails when a C++ file of the project differs from what .clang-format makes of it, and names
# each file with the first lines that differ. The generated-code goldens under tests/data are
# left as the generators write them.
#   check_format.sh SOURCE_DIR CLANG_FORMAT
set -euo pipefail
src=$1 format=$2
cd "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' ':!:tests/data/**')
else
  mapfile -t files < <(find app core widgets tests -name '*.cpp' -o -name '*.h' | grep -v '^tests/data/' | sort)
fi
status=0
for f in "${files[@]}"; do
  if ! diff -q "$f" <("$format" --style=file "$f") >/dev/null; then
    echo "not formatted: $f (run $format -i $f)"
    diff "$f" <("$format" --style=file "$f") | head -8 | sed 's/^/    /'
    status=1
  fi
done
echo "${#files[@]} files checked"
exit $status
