"""Contrast twins: a supported claim rewritten so that its evidence now refutes it, without the word "not".

Rules (each returns a rewritten claim or None):
  direction  increase <-> decrease, higher <-> lower, more <-> less, improves <-> worsens, ...
  groups     "A than B" / "A compared with B" / "between A and B ... A" -> the two groups swapped
  no_effect  "X increases Y" -> "X has no effect on Y"; "X is associated with Y" -> "X is unrelated to Y"
  figure     a figure changed: digits (32% -> 57%), number words (two -> five), ranges (10-20 -> 30-45),
             ratios / fold changes (1.5-fold -> 3.2-fold), confidence intervals (95% CI 1.2-1.8 -> 0.6-0.9)
Identifiers are left alone (IL-6, T-helper 17, CD4, p53, H1N1): a number glued to letters is not a figure.
"""
from __future__ import annotations

import random
import re

# Pairs of opposite change words; both directions are used. Longest forms first within the regex.
_DIRECTION = [
    ("increases", "decreases"), ("increased", "decreased"), ("increase", "decrease"), ("increasing", "decreasing"),
    ("higher", "lower"), ("high", "low"), ("more", "less"), ("greater", "smaller"),
    ("raises", "lowers"), ("raised", "lowered"), ("elevated", "reduced"), ("elevates", "reduces"),
    ("enhances", "inhibits"), ("enhanced", "inhibited"), ("enhance", "inhibit"),
    ("promotes", "suppresses"), ("promoted", "suppressed"), ("promote", "suppress"),
    ("activates", "represses"), ("activated", "repressed"), ("activate", "repress"),
    ("upregulates", "downregulates"), ("upregulated", "downregulated"), ("up-regulates", "down-regulates"),
    ("up-regulated", "down-regulated"), ("upregulation", "downregulation"),
    ("improves", "worsens"), ("improved", "worsened"), ("improve", "worsen"),
    ("positively", "negatively"), ("positive", "negative"), ("gain", "loss"),
    ("larger", "smaller"), ("longer", "shorter"), ("faster", "slower"), ("stronger", "weaker"),
    ("benefit", "harm"), ("protects against", "predisposes to"), ("protective", "harmful"),
    ("accelerates", "slows"), ("stimulates", "inhibits"), ("induces", "prevents"),
    ("rises", "falls"), ("rise", "fall"), ("increasingly", "decreasingly"), ("above", "below"),
    ("most", "least"), ("maximum", "minimum"), ("superior", "inferior"), ("overexpression", "underexpression"),
]
_DIR_MAP: dict[str, str] = {}
for a, b in _DIRECTION:
    _DIR_MAP.setdefault(a, b)
    _DIR_MAP.setdefault(b, a)
_DIR_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _DIR_MAP), key=len, reverse=True)) + r")\b", re.I)

_NUMWORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty", "half", "double", "twice"]


def _case_like(src: str, repl: str) -> str:
    if src.isupper() and len(src) > 1:
        return repl.upper()
    if src[:1].isupper():
        return repl[:1].upper() + repl[1:]
    return repl


def direction(claim: str, rng: random.Random) -> str | None:
    hits = list(_DIR_RE.finditer(claim))
    if not hits:
        return None
    m = rng.choice(hits)
    w = m.group(1)
    return claim[: m.start()] + _case_like(w, _DIR_MAP[w.lower()]) + claim[m.end():]


_GROUP_PATTERNS = [
    re.compile(r"\b(in|among|for) ([\w\- ]{3,40}?) (compared (?:with|to)|relative to|versus|vs\.?) ([\w\- ]{3,40}?)([,.;]|$)", re.I),
    re.compile(r"\b(than) ([\w\- ]{3,40}?)([,.;]|$)", re.I),
]


def groups(claim: str, rng: random.Random) -> str | None:
    m = _GROUP_PATTERNS[0].search(claim)
    if m:
        a, b = m.group(2), m.group(4)
        if a.lower() != b.lower():
            return claim[: m.start(2)] + b + claim[m.end(2): m.start(4)] + a + claim[m.end(4):]
    # "X is higher in A than in B" -> swap A and B
    m = re.search(r"\b(in|among|for) ([\w\- ]{3,40}?) than (in|among|for) ([\w\- ]{3,40}?)([,.;]|$)", claim, re.I)
    if m:
        a, b = m.group(2), m.group(4)
        return claim[: m.start(2)] + b + claim[m.end(2): m.start(4)] + a + claim[m.end(4):]
    m = re.search(r"\b([A-Za-z][\w\-]{2,30}) (is|are|was|were) (more|less|higher|lower|greater|smaller|better|worse)( [\w\-]+)? than ([A-Za-z][\w\-]{2,30})", claim)
    if m and m.group(1).lower() != m.group(5).lower():
        return claim[: m.start(1)] + m.group(5) + claim[m.end(1): m.start(5)] + m.group(1) + claim[m.end(5):]
    return None


_EFFECT_VERB = re.compile(
    r"\b(increases|decreases|reduces|raises|lowers|improves|worsens|enhances|inhibits|promotes|suppresses|induces|"
    r"prevents|causes|activates|represses|stimulates|accelerates|impairs|protects against|affects|regulates|"
    r"upregulates|downregulates|increase|decrease|reduce|improve|inhibit|promote|induce|prevent|cause|activate|affect|regulate)\b (.+)$",
    re.I,
)
_ASSOC = re.compile(r"\b(is|are|was|were) (positively |negatively |strongly |significantly |inversely )?(associated|correlated|linked) (with|to) (.+)$", re.I)


def no_effect(claim: str, rng: random.Random) -> str | None:
    m = _ASSOC.search(claim)
    if m:
        tail = m.group(5)
        phr = rng.choice([f"{m.group(1)} unrelated to {tail}", f"{m.group(1)} independent of {tail}", f"{m.group(1)} unassociated with {tail}"])
        return claim[: m.start()] + phr
    m = _EFFECT_VERB.search(claim)
    if m:
        verb = m.group(1).lower()
        plural = not verb.endswith("s") or verb in ("protects against",) and False
        has = "have" if plural else "has"
        tail = m.group(2)
        end = re.search(r"[.;!]?$", tail).group(0)
        core = tail[: len(tail) - len(end)]
        opts = [f"{has} no effect on {tail}", f"{has} no measurable effect on {tail}"]
        if len(core.split()) <= 6:
            opts.append((f"leaves {core} unchanged" if not plural else f"leave {core} unchanged") + end)
        form = rng.choice(opts)
        return claim[: m.start()] + form
    # a claim that says there is no effect -> an effect
    m = re.search(r"\b(has|have|had) no (significant |measurable )?(effect|impact|influence) on (.+)$", claim, re.I)
    if m:
        v = {"has": "increases", "have": "increase", "had": "increased"}[m.group(1).lower()]
        return claim[: m.start()] + f"{v} {m.group(4)}"
    m = re.search(r"\b(is|are|was|were) (unrelated|unassociated) (to|with) (.+)$", claim, re.I)
    if m:
        return claim[: m.start()] + f"{m.group(1)} strongly associated with {m.group(4)}"
    return None


# A figure: a number not glued to letters on its left (IL-6, CD4, H1N1, T-helper 17 excluded by the context rule).
_NUM = re.compile(r"(?<![\w\-/.])(\d+(?:[.,]\d+)?)(?![\w])(\s?(%|-fold| fold|-times| times| percent|mg| mg| years| months| weeks| days| hours|x))?")
_RANGE = re.compile(r"(?<![\w\-])(\d+(?:\.\d+)?)\s?(-|–|to)\s?(\d+(?:\.\d+)?)(?![\w])")
_CI = re.compile(r"(95%|99%)\s?(CI|confidence interval)[,:]?\s?(\d+(?:\.\d+)?)\s?(-|–|to|,)\s?(\d+(?:\.\d+)?)", re.I)
_IDENT_BEFORE = re.compile(r"(T-helper|type|phase|stage|grade|class|chromosome|day|week|year|figure|table|step|version|group|complex|factor|receptor|subunit|domain|exon|intron)\s*$", re.I)


def _other_number(x: str, rng: random.Random) -> str:
    dec = "." in x
    v = float(x.replace(",", ""))
    for _ in range(10):
        f = rng.choice([0.2, 0.3, 0.4, 0.5, 1.7, 2.0, 2.5, 3.0, 4.0])
        w = v * f if v != 0 else rng.choice([3, 7, 15])
        if dec:
            s = f"{w:.{len(x.split('.')[1])}f}"
        else:
            s = str(max(1, int(round(w))))
        if s != x:
            return s
    return str(int(v) + 7)


def figure(claim: str, rng: random.Random) -> str | None:
    m = _CI.search(claim)
    if m:
        lo, hi = float(m.group(3)), float(m.group(5))
        f = rng.choice([0.4, 0.5, 2.0, 2.5])
        nd = max(len(m.group(3).split(".")[1]) if "." in m.group(3) else 0, 1)
        return claim[: m.start(3)] + f"{lo * f:.{nd}f}" + claim[m.end(3): m.start(5)] + f"{hi * f:.{nd}f}" + claim[m.end(5):]
    m = _RANGE.search(claim)
    if m and not _IDENT_BEFORE.search(claim[: m.start()]):
        a, b = m.group(1), m.group(3)
        try:
            if float(a) < float(b):
                na = _other_number(a, rng)
                nb_v = float(na) + (float(b) - float(a)) * rng.choice([1, 2])
                nb = f"{nb_v:.{len(b.split('.')[1])}f}" if "." in b else str(int(round(nb_v)))
                return claim[: m.start(1)] + na + claim[m.end(1): m.start(3)] + nb + claim[m.end(3):]
        except ValueError:
            pass
    cands = [m for m in _NUM.finditer(claim) if not _IDENT_BEFORE.search(claim[: m.start()])]
    # years (1900-2030) are dates, not figures: change them rarely
    cands = [m for m in cands if not (len(m.group(1)) == 4 and 1900 <= float(m.group(1).replace(",", "")) <= 2030)] or []
    if cands:
        m = rng.choice(cands)
        return claim[: m.start(1)] + _other_number(m.group(1), rng) + claim[m.end(1):]
    words = [m for m in re.finditer(r"\b(" + "|".join(_NUMWORDS) + r")\b", claim, re.I)]
    if words:
        m = rng.choice(words)
        alt = rng.choice([w for w in _NUMWORDS if w != m.group(1).lower()])
        return claim[: m.start()] + _case_like(m.group(1), alt) + claim[m.end():]
    return None


RULES = {"direction": direction, "groups": groups, "no_effect": no_effect, "figure": figure}


def twins(claim: str, rng: random.Random, max_per_claim: int = 2) -> list[tuple[str, str]]:
    """(rule, rewritten claim) pairs; never one that contains the word 'not' or equals the claim."""
    out = []
    names = list(RULES)
    rng.shuffle(names)
    for name in names:
        r = RULES[name](claim, rng)
        if r and r != claim and not re.search(r"\bnot\b|n't\b", r, re.I) and len(r) > 10:
            out.append((name, r))
        if len(out) >= max_per_claim:
            break
    return out


if __name__ == "__main__":
    rng = random.Random(1)
    for c in [
        "32% of liver transplantation programs required patients to discontinue methadone treatment in 2001.",
        "Vitamin D supplementation increases bone density in elderly women compared with placebo.",
        "Smoking is associated with higher risk of lung cancer.",
        "IL-6 levels are higher in patients than controls.",
        "The hazard ratio was 1.45 (95% CI 1.12-1.88) for statin users.",
        "Aspirin reduces the risk of colorectal cancer by 20-30%.",
        "T-helper 17 cells promote autoimmunity.",
        "Two doses of the vaccine has no effect on transmission.",
    ]:
        print(c, "->", twins(c, rng, 4))
