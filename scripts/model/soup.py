"""Average the weights of fine-tuned checkpoints of one architecture (a "model soup").

Used in stop 54 to test whether r7 and its continuation r9 averaged score better on the selection sets than either
(`train.py --init <soup> --epochs 0 --score-init` scores a folder without training). Integer tensors (none in
BERT, but position ids in some exports) are taken from the first checkpoint.

  python soup.py OUT CKPT_A CKPT_B [CKPT ...]
"""
import shutil
import sys
from pathlib import Path

from safetensors.torch import load_file, save_file


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out, srcs = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    states = [load_file(s / "model.safetensors") for s in srcs]
    keys = set(states[0])
    for s, st in zip(srcs, states):
        if set(st) != keys:
            sys.exit(f"{s}: other tensor names than {srcs[0]}; only checkpoints of one architecture can be averaged")
    avg = {}
    for k, t in states[0].items():
        avg[k] = (sum(st[k].float() for st in states) / len(states)).to(t.dtype) if t.is_floating_point() else t
    out.mkdir(parents=True, exist_ok=True)
    save_file(avg, out / "model.safetensors", metadata={"format": "pt"})
    for f in ("config.json", "tokenizer.json", "tokenizer_config.json"):
        if (srcs[0] / f).exists():
            shutil.copy(srcs[0] / f, out / f)
    print(f"averaged {len(srcs)} checkpoints ({len(avg)} tensors) -> {out}")


if __name__ == "__main__":
    main()
