#!/usr/bin/env bash
# PTO Workbench set-up on Debian 12: installs the Debian packages that are missing, builds,
# then either starts the app on a sample project (`./setup.sh run`) or runs every test
# (`./setup.sh test`). Safe to run again: it installs and rebuilds only what changed.
set -euo pipefail

mode=${1:-}
if [[ "$mode" != "run" && "$mode" != "test" ]]; then
  echo "usage: $0 run|test" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build="$root/build/release"

packages=(
  cmake g++ make ccache pkg-config
  qt6-base-dev libqscintilla2-qt6-dev nlohmann-json3-dev libgl-dev
  libtorch-dev libbenchmark-dev libonnx-dev libprotobuf-dev libarchive-dev libdtl-dev
  libpython3.11-dev pybind11-dev
  python3 python3-numpy python3-torch python3-onnx python3-venv
)
[[ "$mode" == "run" ]] && packages+=(xvfb xauth)
# the fuzz targets, the format checks (C++ and Python), pgrep for the tests that look for leftover
# processes, pytest for the import test's pytest-style kernel files
[[ "$mode" == "test" ]] && packages+=(clang-14 libclang-rt-14-dev clang-format-14 black flake8 procps
  python3-pytest)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "== installing: ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ccache serves every clone: paths inside the clone are hashed relative to it, and the build
# folder's own path is not part of the hash (the kernel worker's first-use builds use it too).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true

configure_args=()
if [[ "$mode" == "test" ]]; then
  # The generated glue is tested with Debian's torch and with the newest one from PyPI.
  configure_args+=("-DPTOWB_NEWEST_TORCH_PYTHON=$("$root/tests/glue/newest_torch_venv.sh")")
fi

echo "== configuring and building in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${configure_args[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"

if [[ "$mode" == "test" ]]; then
  echo "== running the test suite"
  cd "$build"
  ctest --output-on-failure -j "$(nproc)"
  exit $?
fi

app="$build/app/gui/ptowb"
project="$root/projects/scale_gelu"
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec "$app" "$project"
fi
echo "== no display found: starting the app under a virtual X server (xvfb-run)"
exec xvfb-run -a -s "-screen 0 1400x860x24" "$app" "$project"
