#!/usr/bin/env bash
# Makes the venv with PyPI's real pypto that the cost calibration (calibrate_cost.py) and the
# pypto-sim backend's tests use: Debian's Python and torch (--system-site-packages; pypto 0.2.0
# declares no torch requirement but imports it), pypto 0.2.0 from PyPI or from a wheel given.
#   pypto_venv.sh [WHEEL]   → prints the venv's python
set -euo pipefail
venv=${PTOWB_PYPTO_VENV:-$HOME/.cache/ptowb/venv-pypto}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pypto' >/dev/null 2>&1; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install --quiet --no-deps "${1:-pypto==0.2.0}"
fi
echo "$venv/bin/python"
