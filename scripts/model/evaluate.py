"""Score an exported verifier ONNX (int8 or fp32) on the report and validation sets with onnxruntime.

  python evaluate.py ../../models/verifier/onnx/model_quantized.onnx --out ../../eval-results/verifier-int8.json

Sets (built by build_data.py; never trained on): SNLI held-out (3,000 of SNLI test), RTE dev (2-way: entailment vs
not), SciFact dev oracle (claim vs its gold rationale sentences; NEI: claim vs the cited abstract), WiCE held-out
30% of claims (AUC of P(supports), supported vs not supported, and vs partially/not supported), COVID-Fact and
HealthVer dev (validation only, never trained on). Truncation as the product does it (longest_first, 256 tokens).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
from transformers import AutoTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import DATA, auc, jl, score  # noqa: E402

SETS = ["report_snli", "report_rte", "report_scifact_dev", "report_wice", "val_covidfact", "val_healthver"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("onnx")
    ap.add_argument("--tokenizer", default="", help="folder with tokenizer.json (default: the ONNX file's model folder)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sample", type=int, default=600, help="rows of COVID-Fact / HealthVer / SNLI scored (seeded sample)")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=1, help="pairs per run: 1, as the product reads an int8 file "
                    "(its activations are quantized per batch tensor, so a pair read among others reads differently; "
                    "src/models/onnx/load.ts); figures before stop 53 were read at 32")
    a = ap.parse_args()
    onnx_path = Path(a.onnx)
    tok = AutoTokenizer.from_pretrained(a.tokenizer or onnx_path.parent.parent)
    so = ort.SessionOptions()
    so.intra_op_num_threads = a.threads
    sess = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
    res = {"onnx": str(onnx_path), "batch": a.batch, "sets": {}}
    for name in a.sets.split(","):
        rows = jl(name)
        if len(rows) > a.sample and name in ("val_covidfact", "val_healthver", "report_snli"):
            rows = random.Random(5).sample(rows, a.sample)
        t = time.time()
        order = sorted(range(len(rows)), key=lambda i: len(rows[i]["text"]) + len(rows[i]["pair"]))
        probs = np.zeros((len(rows), 3), dtype=np.float32)
        for s in range(0, len(order), a.batch):
            b = order[s: s + a.batch]
            enc = tok([rows[i]["text"] for i in b], [rows[i]["pair"] for i in b], truncation="longest_first",
                      max_length=a.max_len, padding=True, return_tensors="np")
            feeds = {k: enc[k].astype(np.int64) for k in ["input_ids", "attention_mask", "token_type_ids"]}
            logits = sess.run(["logits"], feeds)[0]
            e = np.exp(logits - logits.max(1, keepdims=True))
            probs[b] = e / e.sum(1, keepdims=True)
        r = score(name, rows, probs)
        if name == "report_wice":
            lab = np.array([x["wice_label"] for x in rows])
            r["auc_supported_vs_not_supported"] = auc(probs[lab == "supported", 0], probs[lab == "not_supported", 0])
            r["auc_supported_vs_partial_or_not"] = auc(probs[lab == "supported", 0], probs[lab != "supported", 0])
        if name == "val_covidfact":
            y = np.array([x["label"] for x in rows])
            r["acc_2way_sup_contra"] = float(((probs[:, 0] > probs[:, 2]) == (y == 0)).mean())
        r["seconds"] = round(time.time() - t, 1)
        res["sets"][name] = r
        print(name, json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}), flush=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
