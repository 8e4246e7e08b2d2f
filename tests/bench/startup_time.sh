#!/usr/bin/env bash
# Window-shown time of the app: from process start to the main window exposed and painted, as
# `ptowb --startup-time` reports it. Runs it N times (under xvfb-run without a display, or on the
# platform QT_QPA_PLATFORM names, as CTest's startup_time test runs it offscreen) with a fresh
# configuration and prints each time and the median. Fails when a run reports no time.
#   tests/bench/startup_time.sh BUILD_DIR [PROJECT] [RUNS]
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [PROJECT] [RUNS]}
project=${2:-}
runs=${3:-5}
app="$build/app/gui/ptowb"
if [[ -z "${DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" && -z "${PTOWB_UNDER_XVFB:-}" ]]; then
  PTOWB_UNDER_XVFB=1 exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
times=()
for ((k = 0; k < runs; ++k)); do
  log="$config/log"
  XDG_CONFIG_HOME="$config" timeout 30 "$app" ${project:+"$project"} --startup-time 2>"$log" || true
  ms=$(sed -n 's/.*window shown \([0-9]*\) ms.*/\1/p' "$log")
  [[ -n "$ms" ]] || { echo "no startup time reported:" >&2; cat "$log" >&2; exit 1; }
  echo "run $((k + 1)): ${ms} ms"
  times+=("$ms")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print "median: " a[int((NR + 1) / 2)] " ms" }'
