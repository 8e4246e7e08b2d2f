#!/usr/bin/env bash
# Runs one CTest test as on a fresh machine (tests/CMakeLists.txt registers every test through it):
#
#   isolated_test.sh NAME WORK_ROOT [VAR=VALUE...] -- COMMAND [ARG...]
#   isolated_test.sh --report WORK_ROOT     (after the run: which tests skipped, and why)
#
# - HOME and the XDG config, data, state and runtime folders are WORK_ROOT/NAME, emptied first:
#   the tester's ~/.config/ptowb (runners.json, tolerances.json) and Qt settings never reach a test.
# - The variables that steer ptowb, Python, PyPTO, CANN or Qt are unset (PYTHONDONTWRITEBYTECODE
#   is set); the test's own VAR=VALUE settings are applied after that.
# - The caches stay shared (XDG_CACHE_HOME, ccache's folder and configuration): the kernel worker
#   built for an interpreter takes minutes, and a cache changes how fast a test runs, not what it
#   finds.
# - Skips are not passes: a test that passes with "SKIP" lines (Qt Test's QSKIP) or exits 77 with
#   one (a script's own skip) exits 77, which CTest reports as skipped (SKIP_RETURN_CODE); the
#   lines go to WORK_ROOT/skipped/NAME for --report. A test that failed stays failed.
set -uo pipefail

if [[ "${1:-}" == "--report" ]]; then
  shopt -s nullglob
  reasons=("$2"/skipped/*)
  ((${#reasons[@]})) || exit 0
  echo "Skipped, and why:"
  for file in "${reasons[@]}"; do
    sed "s|^|  ${file##*/}: |" "$file"
  done
  exit 0
fi

if (($# < 4)); then
  echo "usage: $0 NAME WORK_ROOT [VAR=VALUE...] -- COMMAND [ARG...]" >&2
  exit 2
fi
name=$1 root=$2
shift 2

# ccache finds its folder and configuration from HOME and XDG_CONFIG_HOME: pin both first.
if command -v ccache >/dev/null; then
  if [[ -z "${CCACHE_CONFIGPATH:-}" ]]; then
    for conf in "${CCACHE_DIR:+$CCACHE_DIR/ccache.conf}" "${XDG_CONFIG_HOME:-$HOME/.config}/ccache/ccache.conf" \
      "$HOME/.ccache/ccache.conf"; do
      if [[ -n "$conf" && -f "$conf" ]]; then
        export CCACHE_CONFIGPATH=$conf
        break
      fi
    done
  fi
  [[ -n "${CCACHE_DIR:-}" ]] || CCACHE_DIR=$(ccache -k cache_dir) && export CCACHE_DIR
fi
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$HOME/.cache}

while IFS= read -r var; do
  case $var in
    PTOWB_* | PYTHON* | PYPTO_* | ASCEND_* | TILE_FWK_* | QT_* | QTEST_* | XDG_CONFIG_DIRS | XDG_DATA_DIRS)
      unset "$var"
      ;;
  esac
done < <(compgen -e)

# Python imports the repository's scripts and test kernels: no __pycache__ in the source tree.
export PYTHONDONTWRITEBYTECODE=1

home=$root/$name
rm -rf "$home" "$root/skipped/$name"
mkdir -p "$home/.config" "$home/.local/share" "$home/.local/state" "$home/runtime"
chmod 700 "$home/runtime"
export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
  XDG_STATE_HOME=$home/.local/state XDG_RUNTIME_DIR=$home/runtime

while (($#)) && [[ "$1" != "--" ]]; do
  export "${1?}"
  shift
done
shift # --

log=$home/output.log
"$@" > >(tee "$log") 2>&1
status=$?
wait $! # tee has written everything

skips=$(grep -a '^SKIP' "$log")
if [[ -n "$skips" ]] && { ((status == 0)) || { ((status == 77)) && ! grep -aq '^FAIL' "$log"; }; }; then
  mkdir -p "$root/skipped"
  printf '%s\n' "$skips" >"$root/skipped/$name"
  exit 77
fi
((status == 77)) && exit 1 # 77 failed Qt Test functions, not a skip
exit "$status"
