#!/usr/bin/env bash
# Fails when a Python file under core/ or tests/ differs from what black makes of it, or when
# flake8 finds a problem in one (an unused import, an undefined name, a shadowed builtin...).
# Left out: tests/data, whose kernels and hostile files are inputs written the way the authors and
# attackers they stand for write them.
#   check_python.sh SOURCE_DIR BLACK FLAKE8
set -euo pipefail
src=$1 black=$2 flake8=$3
cd "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files 'core/*.py' 'tests/*.py' ':!:tests/data/**')
else
  mapfile -t files < <(find core tests -name '*.py' | grep -v '^tests/data/' | sort)
fi
# One line length for both, the one the C++ uses too; E203 and W503 are where black and
# pycodestyle disagree (black's choice stands).
status=0
"$black" --quiet --check --diff --line-length 120 "${files[@]}" | head -60 || status=1
"$flake8" --max-line-length 120 --extend-ignore E203,W503 "${files[@]}" || status=1
if (( status )); then
  echo "run: $black --line-length 120 FILE (and mend what flake8 names)"
fi
echo "${#files[@]} files checked"
exit $status
