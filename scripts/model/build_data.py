"""Build the cross-encoder's training, selection and report sets from /work/shared/data (or $VERACITE_DATA).

Rows: {"text": claim, "pair": evidence passage, "label": 0|1|2, "kind": "3way"|"binary", "src": ...}
Labels: 0 entailment/supports, 1 neutral/neither, 2 contradiction/refutes. kind "binary" (GLUE RTE) has label 0
entailment or 1 not-entailment (trained as P(entailment) vs P(neutral)+P(contradiction)).

Licences of what is TRAINED on (shipped weights): SNLI (CC BY-SA 4.0), GLUE RTE train (RTE research terms, the
GLUE distribution), SciFact train (claims CC BY 4.0, abstracts ODC-By 1.0), WiCE dev (ODC-BY annotations), and
contrast twins generated here from them. NEVER SICK, COVID-Fact or HealthVer in train: those two are written only
to val_covidfact / val_healthver (validation figures). Never data/samples/*, citation sets or test/cases.

Splits (seeded, deterministic):
  SNLI test: 3,000 pairs held out (report_snli), never trained; SNLI dev: 1,000 for selection (sel_snli); rest train.
  SciFact train claims: 15% by claim id for selection (sel_scifact, oracle form); 85% train.
  SciFact dev: report only (report_scifact_dev, oracle form). RTE dev: report (report_rte).
  WiCE dev claims: 30% by claim hash held out (report_wice); 70% train.
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from contrast import twins  # noqa: E402

DATA = Path(os.environ.get("VERACITE_DATA", "/work/shared/data"))
OUT = Path(os.environ.get("VERACITE_MODEL_WORK", "/root/.cache/veracite-model")) / "data"
SEED = 43
LAB = {"entailment": 0, "neutral": 1, "contradiction": 2}


def h(s: str) -> float:
    return int(hashlib.sha256(s.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def jl(p: Path):
    with open(p, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def write(name: str, rows: list[dict]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / f"{name}.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    c = Counter((r["kind"], r["label"]) for r in rows)
    print(f"{name:22s} {len(rows):6d}  {dict(sorted(c.items()))}")


def row(text, pair, label, src, kind="3way", **extra):
    return {"text": text.strip(), "pair": pair.strip(), "label": label, "kind": kind, "src": src, **extra}


def window(sents: list[str], centre: list[int], words: int = 100) -> str:
    """The centre sentences grown alternately left and right to about `words` words."""
    lo, hi = min(centre), max(centre)
    n = sum(len(sents[i].split()) for i in range(lo, hi + 1))
    left = True
    while n < words and (lo > 0 or hi < len(sents) - 1):
        if (left and lo > 0) or hi >= len(sents) - 1:
            lo -= 1
            n += len(sents[lo].split())
        else:
            hi += 1
            n += len(sents[hi].split())
        left = not left
    return " ".join(sents[lo: hi + 1])


def snli(rng):
    def load(p):
        return [r for r in jl(p) if r["label"] in LAB]
    dev, test = load(DATA / "nli/snli/snli_dev.jsonl"), load(DATA / "nli/snli/snli_test.jsonl")
    rng.shuffle(dev)
    rng.shuffle(test)
    report = [row(r["hypothesis"], r["premise"], LAB[r["label"]], "snli") for r in test[:3000]]
    sel = [row(r["hypothesis"], r["premise"], LAB[r["label"]], "snli") for r in dev[:1000]]
    train = [row(r["hypothesis"], r["premise"], LAB[r["label"]], "snli") for r in dev[1000:] + test[3000:]]
    return train, sel, report


def rte(rng):
    def load(p):
        with open(p, encoding="utf-8") as f:
            rd = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            next(rd)
            return [r for r in rd if len(r) == 4]
    train = []
    for _, s1, s2, lab in load(DATA / "nli/rte/train.tsv"):
        y = 0 if lab == "entailment" else 1
        train.append(row(s2, s1, y, "rte", "binary"))
        if y == 0:  # a figure changed in an entailed hypothesis -> refuted
            for rule, t in twins(s2, rng, 1):
                if rule == "figure":
                    train.append(row(t, s1, 2, "rte-twin-figure"))
    report = [row(s2, s1, 0 if lab == "entailment" else 1, "rte", "binary") for _, s1, s2, lab in load(DATA / "nli/rte/dev.tsv")]
    return train, report


def scifact(rng):
    corpus = {d["doc_id"]: d for d in jl(DATA / "scifact/corpus.jsonl")}

    def oracle(claims, src):
        rows = []
        for c in claims:
            if c["evidence"]:
                for did, sets in c["evidence"].items():
                    sents = corpus[int(did)]["abstract"]
                    idx = sorted({i for s in sets for i in s["sentences"]})
                    y = 0 if sets[0]["label"] == "SUPPORT" else 2
                    rows.append(row(c["claim"], " ".join(sents[i] for i in idx), y, src, claim_id=c["id"], doc=int(did)))
            else:
                for did in c["cited_doc_ids"]:
                    d = corpus[int(did)]
                    rows.append(row(c["claim"], " ".join(d["abstract"]), 1, src, claim_id=c["id"], doc=int(did)))
        return rows

    train_claims = list(jl(DATA / "scifact/claims_train.jsonl"))
    sel_claims = [c for c in train_claims if h(f"scifact-{c['id']}") < 0.15]
    fit_claims = [c for c in train_claims if h(f"scifact-{c['id']}") >= 0.15]
    train = []
    for c in fit_claims:
        claim = c["claim"]
        if c["evidence"]:
            for did, sets in c["evidence"].items():
                sents = corpus[int(did)]["abstract"]
                y = 0 if sets[0]["label"] == "SUPPORT" else 2
                idx = sorted({i for s in sets for i in s["sentences"]})
                forms = [" ".join(sents[i] for i in idx)]
                for s in sets:
                    forms.append(window(sents, s["sentences"], rng.choice([60, 100, 130])))
                    if len(s["sentences"]) == 1:
                        forms.append(sents[s["sentences"][0]])
                forms = list(dict.fromkeys(forms))
                for f in forms:
                    train.append(row(claim, f, y, "scifact"))
                    if y == 0:
                        for rule, t in twins(claim, rng, 2):
                            train.append(row(t, f, 2, f"scifact-twin-{rule}"))
                # neither: sentences / windows without any rationale sentence
                others = [i for i in range(len(sents)) if i not in idx]
                for i in rng.sample(others, min(2, len(others))):
                    train.append(row(claim, sents[i], 1, "scifact-nonrationale"))
                far = [i for i in others if all(abs(i - j) > 2 for j in idx)]
                if far:
                    i = rng.choice(far)
                    lo = i
                    w = []
                    while lo < len(sents) and lo not in idx and sum(len(x.split()) for x in w) < 90:
                        w.append(sents[lo])
                        lo += 1
                    train.append(row(claim, " ".join(w), 1, "scifact-nonrationale"))
        else:
            for did in c["cited_doc_ids"]:
                sents = corpus[int(did)]["abstract"]
                if not sents:
                    continue
                i = rng.randrange(len(sents))
                train.append(row(claim, window(sents, [i], 100), 1, "scifact-nei"))
                train.append(row(claim, sents[rng.randrange(len(sents))], 1, "scifact-nei"))
    # a random other abstract's passage: neither (wrong source)
    docs = list(corpus.values())
    for c in rng.sample(fit_claims, len(fit_claims) // 2):
        d = rng.choice(docs)
        if d["abstract"]:
            train.append(row(c["claim"], window(d["abstract"], [rng.randrange(len(d["abstract"]))], 100), 1, "scifact-random"))
    sel = oracle(sel_claims, "scifact")
    report = oracle(list(jl(DATA / "scifact/claims_dev.jsonl")), "scifact")
    return train, sel, report


def wice(rng):
    rows = list(jl(DATA / "wice/oracle_chunks_claim_dev.jsonl"))
    train, report = [], []
    for r in rows:
        lab = r["label"]
        ev = " ".join(r["evidence"])
        held = h("wice-" + r["claim"]) < 0.30
        if held:
            y = {"supported": 0, "partially_supported": 1, "not_supported": 1}[lab]
            report.append(row(r["claim"], ev, y, "wice", wice_label=lab))
            continue
        if lab == "supported":
            train.append(row(r["claim"], ev, 0, "wice"))
            for rule, t in twins(r["claim"], rng, 1):
                train.append(row(t, ev, 2, f"wice-twin-{rule}"))
        elif lab == "not_supported":
            train.append(row(r["claim"], ev, 1, "wice"))
    return train, report


def covidfact():
    out = []
    for r in jl(DATA / "covidfact/COVIDFACT_dataset.jsonl"):
        y = 0 if r["label"] == "SUPPORTED" else 2
        out.append(row(r["claim"], " ".join(r["evidence"]), y, "covidfact"))
    return out


def healthver():
    out = []
    with open(DATA / "healthver/healthver_dev.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            y = {"Supports": 0, "Neutral": 1, "Refutes": 2}.get(r["label"])
            if y is not None:
                out.append(row(r["claim"], r["evidence"], y, "healthver"))
    return out


def main():
    rng = random.Random(SEED)
    snli_train, snli_sel, snli_rep = snli(rng)
    rte_train, rte_rep = rte(rng)
    sf_train, sf_sel, sf_rep = scifact(rng)
    wi_train, wi_rep = wice(rng)
    write("train_snli", snli_train)
    write("train_rte", rte_train)
    write("train_scifact", sf_train)
    write("train_wice", wi_train)
    write("sel_snli", snli_sel)
    write("sel_scifact", sf_sel)
    write("report_snli", snli_rep)
    write("report_rte", rte_rep)
    write("report_scifact_dev", sf_rep)
    write("report_wice", wi_rep)
    write("val_covidfact", covidfact())
    write("val_healthver", healthver())
    srcs = Counter(r["src"] for r in sf_train + wi_train + rte_train)
    print("sources:", dict(srcs))


if __name__ == "__main__":
    main()
