#!/usr/bin/env bash
# Makes (once) the venv with the newest torch, onnx, onnxscript and onnxruntime named in
# requirements.txt beside this script, and prints its python. The venv lives outside the
# clone, in ${PTOWB_CACHE:-~/.cache/ptowb}/venv-<hash of requirements.txt>, so a fresh clone
# reuses it and a changed requirements file makes a new one. It is installed in a staging
# folder and renamed when complete, so an interrupted install is never taken for a finished
# one. Only its bin/python is used (as `python -m pip`), which still works after the rename.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
requirements="$here/requirements.txt"
cache=${PTOWB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptowb}
key=$(sha256sum "$requirements" | cut -c1-16)
venv="$cache/venv-$key"
if [[ ! -x "$venv/bin/python" ]]; then
  mkdir -p "$cache"
  staging=$(mktemp -d "$cache/.venv-$key.XXXXXX")
  trap 'rm -rf "$staging"' EXIT
  echo "== making the newest-torch venv $venv (about 3 GB to download, once)" >&2
  /usr/bin/python3 -m venv "$staging"
  "$staging/bin/python" -m pip install -q --disable-pip-version-check --no-cache-dir -r "$requirements" >&2
  mv -T "$staging" "$venv"
  trap - EXIT
fi
echo "$venv/bin/python"
