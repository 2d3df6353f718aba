"""Fine-tune a cross-encoder (text = claim, text_pair = evidence passage) -> 0 entailment, 1 neutral, 2 contradiction.

  python train.py --base minilm --out /root/.cache/veracite-model/runs/minilm-a --epochs 2 --lr 4e-5

CPU-friendly: torch.set_num_threads(2), dynamic padding with length buckets, max_length 256 truncating the passage
only. Each epoch reads all SciFact / WiCE / RTE training rows and --snli-per-epoch SNLI rows (a fresh sample each
epoch). After each epoch it scores the selection sets (sel_scifact, sel_snli, HealthVer and COVID-Fact validation
samples) and keeps the best checkpoint by the selection score (see SELECTION below). Progress (items/s, ETA) goes to
<out>/train.log and stdout.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
import time
from pathlib import Path

import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bases import base_dir  # noqa: E402

WORK = Path(os.environ.get("VERACITE_MODEL_WORK", "/root/.cache/veracite-model"))
DATA = WORK / "data"
ID2LABEL = {0: "entailment", 1: "neutral", 2: "contradiction"}
SRC_WEIGHT = {"scifact": 2.0, "wice": 1.5}
# SELECTION: 0.5 * SciFact-train held-out oracle accuracy + 0.25 * SNLI selection accuracy + 0.25 * HealthVer accuracy
SELECTION = {"sel_scifact": 0.5, "sel_snli": 0.25, "val_healthver": 0.25}


def jl(name):
    with open(DATA / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(x) for x in f if x.strip()]


class Log:
    def __init__(self, path: Path):
        self.f = open(path, "a", encoding="utf-8")

    def __call__(self, *a):
        s = time.strftime("%H:%M:%S ") + " ".join(str(x) for x in a)
        print(s, flush=True)
        self.f.write(s + "\n")
        self.f.flush()


def batches(rows, tok, bs, max_len, rng, shuffle=True):
    idx = list(range(len(rows)))
    if shuffle:
        rng.shuffle(idx)
    # length buckets: sort chunks of 50 batches by length, then shuffle the batches
    chunk = bs * 50
    out = []
    for c in range(0, len(idx), chunk):
        part = sorted(idx[c: c + chunk], key=lambda i: len(rows[i]["text"]) + len(rows[i]["pair"]))
        out += [part[i: i + bs] for i in range(0, len(part), bs)]
    if shuffle:
        rng.shuffle(out)
    for b in out:
        rs = [rows[i] for i in b]
        enc = tok([r["text"] for r in rs], [r["pair"] for r in rs], truncation="only_second", max_length=max_len,
                  padding=True, return_tensors="pt")
        yield rs, enc


def loss_fn(logits, rows):
    logp = torch.log_softmax(logits, -1)
    losses = []
    for i, r in enumerate(rows):
        if r["kind"] == "binary" and r["label"] == 1:
            l = -torch.logsumexp(logp[i, 1:], 0)  # not entailment: P(neutral) + P(contradiction)
        else:
            l = -logp[i, r["label"]]
        losses.append(l * SRC_WEIGHT.get(r["src"], 1.0))
    return torch.stack(losses).mean()


@torch.no_grad()
def predict(model, tok, rows, bs=32, max_len=256):
    model.eval()
    probs = np.zeros((len(rows), 3), dtype=np.float32)
    order = sorted(range(len(rows)), key=lambda i: len(rows[i]["text"]) + len(rows[i]["pair"]))
    for s in range(0, len(order), bs):
        b = order[s: s + bs]
        enc = tok([rows[i]["text"] for i in b], [rows[i]["pair"] for i in b], truncation="only_second",
                  max_length=max_len, padding=True, return_tensors="pt")
        p = torch.softmax(model(**enc).logits, -1).numpy()
        probs[b] = p
    model.train()
    return probs


def auc(pos, neg):
    pos, neg = np.asarray(pos), np.asarray(neg)
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    allv = np.concatenate([pos, neg])
    # average ranks for ties
    from scipy.stats import rankdata
    ranks = rankdata(allv)
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def score(name, rows, probs):
    y = np.array([r["label"] for r in rows])
    pred = probs.argmax(1)
    out = {"n": len(rows)}
    if rows and rows[0]["kind"] == "binary":
        out["acc"] = float(((pred == 0) == (y == 0)).mean())
        out["auc_entail"] = auc(probs[y == 0, 0], probs[y == 1, 0])
        return out
    out["acc"] = float((pred == y).mean())
    for k, lab in ID2LABEL.items():
        if (y == k).any():
            out[f"recall_{lab}"] = float((pred[y == k] == k).mean())
    if (y == 0).any() and (y == 2).any():
        out["auc_sup_vs_contra"] = auc(probs[y == 0, 0], probs[y == 2, 0])
        out["acc_2way_sup_contra"] = float(((probs[:, 0] > probs[:, 2]) == (y == 0))[(y == 0) | (y == 2)].mean())
    if (y == 0).any() and (y != 0).any():
        out["auc_sup_vs_rest"] = auc(probs[y == 0, 0], probs[y != 0, 0])
    return out


def evaluate(model, tok, sets, log, max_len):
    res = {}
    for name, rows in sets.items():
        t = time.time()
        p = predict(model, tok, rows, max_len=max_len)
        res[name] = score(name, rows, p)
        log(f"  eval {name}: {json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in res[name].items()})} ({time.time() - t:.0f}s)")
    return res


def selection_score(res):
    """The checkpoint choice: the SELECTION-weighted accuracies of evaluate()'s sets."""
    return sum(w * res[k]["acc"] for k, w in SELECTION.items())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="minilm")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument("--snli-per-epoch", type=int, default=6000)
    ap.add_argument("--rte-per-epoch", type=int, default=2657)
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many steps in total (0 = no limit)")
    ap.add_argument("--sel-sample", type=int, default=400, help="rows of each large selection set scored per epoch")
    ap.add_argument("--freeze-embeddings", action="store_true", help="keep the word/position embeddings fixed (CPU time)")
    ap.add_argument("--freeze-layers", type=int, default=0, help="also keep the lowest N encoder layers fixed")
    ap.add_argument("--init", default="", help="start from this fine-tuned checkpoint folder instead of the base")
    ap.add_argument("--stop-at", default="", help="HH:MM (UTC): stop training then, score and save (CPU budget)")
    ap.add_argument("--score-init", action="store_true", help="score the selection sets before training (the baseline a continued run must beat)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    # --stop-at HH:MM (UTC) as a moment: the next time the clock shows it (a run started at 23:50 with --stop-at
    # 00:30 stops after midnight, not at once, as comparing the two strings did)
    stop_at = 0.0
    if a.stop_at:
        m = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", a.stop_at)
        if not m:
            ap.error(f"--stop-at {a.stop_at}: give HH:MM (UTC), e.g. 00:30")
        hh, mm = int(m.group(1)), int(m.group(2))
        now = time.time()
        stop_at = now - now % 86400 + hh * 3600 + mm * 60
        if stop_at <= now:
            stop_at += 86400

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    log = Log(out / "train.log")
    log("args", json.dumps(vars(a)))

    bdir = base_dir(a.base)
    tok = AutoTokenizer.from_pretrained(bdir)
    model = AutoModelForSequenceClassification.from_pretrained(
        a.init or bdir, num_labels=3, id2label=ID2LABEL, label2id={v: k for k, v in ID2LABEL.items()})
    model.train()
    enc_mod = getattr(model, model.base_model_prefix)
    if a.freeze_embeddings:
        for p_ in enc_mod.embeddings.parameters():
            p_.requires_grad = False
    for layer in enc_mod.encoder.layer[: a.freeze_layers]:
        for p_ in layer.parameters():
            p_.requires_grad = False
    trainable = [p_ for p_ in model.parameters() if p_.requires_grad]

    snli, rte = jl("train_snli"), jl("train_rte")
    fixed = jl("train_scifact") + jl("train_wice")
    srng = random.Random(7)
    sel = {
        "sel_scifact": jl("sel_scifact"),
        "sel_snli": srng.sample(jl("sel_snli"), min(a.sel_sample, 1000)),
        "val_healthver": srng.sample(jl("val_healthver"), a.sel_sample),
        "val_covidfact": srng.sample(jl("val_covidfact"), a.sel_sample),
    }
    per_epoch = len(fixed) + min(a.snli_per_epoch, len(snli)) + min(a.rte_per_epoch, len(rte))
    steps_per_epoch = math.ceil(per_epoch / a.bs)
    total = steps_per_epoch * a.epochs
    if a.max_steps:
        total = min(total, a.max_steps)
    opt = torch.optim.AdamW(trainable, lr=a.lr, weight_decay=0.01)
    warm = max(1, int(0.06 * total))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    log(f"trainable parameters {sum(p_.numel() for p_ in trainable):,} of {sum(p_.numel() for p_ in model.parameters()):,}")
    log(f"base {a.base} ({bdir}); {per_epoch} rows/epoch, {steps_per_epoch} steps/epoch, {total} steps")

    step, best, history = 0, -1.0, []
    if a.score_init:
        res = evaluate(model, tok, sel, log, a.max_len)
        s0 = selection_score(res)
        history.append({"epoch": 0, "step": 0, "selection": s0, **res})
        log(f"  selection score at init {s0:.4f}")
        model.train()
    t0 = time.time()
    seen = 0
    for ep in range(a.epochs):
        rows = fixed + rng.sample(snli, min(a.snli_per_epoch, len(snli))) + rng.sample(rte, min(a.rte_per_epoch, len(rte)))
        run_loss = 0.0
        for i, (rs, enc) in enumerate(batches(rows, tok, a.bs, a.max_len, rng)):
            logits = model(**enc).logits
            loss = loss_fn(logits, rs)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            seen += len(rs)
            run_loss = 0.98 * run_loss + 0.02 * loss.item() if i else loss.item()
            if step % 10 == 0:
                el = time.time() - t0
                ips = seen / el
                eta = (total - step) * a.bs / ips
                log(f"ep {ep + 1} step {step}/{total} loss {run_loss:.3f} lr {sched.get_last_lr()[0]:.2e} {ips:.1f} items/s elapsed {el / 60:.1f} min ETA {eta / 60:.1f} min")
            if a.max_steps and step >= a.max_steps:
                break
            if stop_at and time.time() >= stop_at:
                log(f"stop-at {a.stop_at} reached at step {step}")
                a.max_steps = step
                break
        log(f"epoch {ep + 1} done at step {step} ({(time.time() - t0) / 60:.1f} min)")
        res = evaluate(model, tok, sel, log, a.max_len)
        s = selection_score(res)
        history.append({"epoch": ep + 1, "step": step, "selection": s, **res})
        log(f"  selection score {s:.4f} (best {best:.4f})")
        if s > best:
            best = s
            model.save_pretrained(out / "best")
            tok.save_pretrained(out / "best")
            log(f"  saved {out / 'best'}")
        json.dump({"args": vars(a), "history": history, "best_selection": best}, open(out / "history.json", "w"), indent=1)
        if a.max_steps and step >= a.max_steps:
            break
    log(f"done in {(time.time() - t0) / 60:.1f} min; best selection {best:.4f}")


if __name__ == "__main__":
    main()
