"""Check every upstream file inside the installed carrying packages against pins.json. FAIL CLOSED.

  python verify_pins.py            # all models in pins.json
  python verify_pins.py all-MiniLM-L6-v2

Exit 0 only when every pinned file exists, is a regular file (no symlink), and has the pinned size and SHA-256.
Any missing package, missing file, size or digest mismatch exits 1 and names the file.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def sha256(p: Path) -> str:
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


M2 = Path(os.environ.get("MAVEN_REPO", str(Path.home() / ".m2" / "repository")))


def carrier_dir(carrier: dict) -> Path | None:
    if "jar" in carrier:
        return M2 / carrier["jar"]
    spec = importlib.util.find_spec(carrier["import"])
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / carrier.get("dir", "")


def verify(name: str, m: dict) -> list[str]:
    errors = []
    root = carrier_dir(m["carrier"])
    if "jar" in m["carrier"]:
        return verify_jar(name, m, root)
    if root is None or not root.is_dir():
        return [f"{name}: carrying package {m['carrier']['pypi']} (import {m['carrier']['import']}) is not installed"]
    for rel, pin in m["files"].items():
        p = root / rel
        if p.is_symlink():
            errors.append(f"{name}: {p} is a symlink; refusing it")
            continue
        if not p.is_file():
            errors.append(f"{name}: {p} is missing")
            continue
        size = p.stat().st_size
        if size != pin["size"]:
            errors.append(f"{name}: {p} is {size} bytes, pinned {pin['size']}")
            continue
        d = sha256(p)
        if d != pin["sha256"]:
            errors.append(f"{name}: {p} has SHA-256 {d}, pinned {pin['sha256']}")
            continue
        print(f"ok   {name}: {rel} {size} bytes sha256 {d[:16]}...")
    return errors


def verify_jar(name: str, m: dict, jar: Path) -> list[str]:
    if not jar.is_file():
        return [f"{name}: carrying jar {m['carrier']['maven']} is not installed at {jar} (run setup.sh)"]
    errors = []
    with zipfile.ZipFile(jar) as z:
        members = set(z.namelist())
        for rel, pin in m["files"].items():
            if rel not in members:
                errors.append(f"{name}: {jar}!{rel} is missing")
                continue
            h, size = hashlib.sha256(), 0
            with z.open(rel) as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
                    size += len(chunk)
            if size != pin["size"]:
                errors.append(f"{name}: {jar}!{rel} is {size} bytes, pinned {pin['size']}")
            elif h.hexdigest() != pin["sha256"]:
                errors.append(f"{name}: {jar}!{rel} has SHA-256 {h.hexdigest()}, pinned {pin['sha256']}")
            else:
                print(f"ok   {name}: {rel} (upstream {pin.get('upstream_path', rel)}) {size} bytes sha256 {pin['sha256'][:16]}...")
    return errors


def main(argv: list[str]) -> int:
    pins = json.loads((HERE / "pins.json").read_text(encoding="utf-8"))["models"]
    names = argv or list(pins)
    errors = []
    for n in names:
        if n not in pins:
            errors.append(f"{n}: no pins in pins.json")
            continue
        errors += verify(n, pins[n])
    for e in errors:
        print(f"FAIL {e}", file=sys.stderr)
    if errors:
        print(f"verify_pins: {len(errors)} file(s) failed; nothing may be built from them", file=sys.stderr)
        return 1
    print(f"verify_pins: all pinned files of {', '.join(names)} match")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
