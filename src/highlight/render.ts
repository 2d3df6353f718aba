/**
 * The highlighting rule (evidence-role.ts) rendered for the HTML report and for terminals. The web page
 * renders the same structure with DOM nodes (src/web/sources.js): a sentence is
 * `<span class="ev ev-<role>" data-role="<role>" title="<label>">` around its text, claim words inside
 * are `<mark>` (bold, underlined: the background belongs to the role); a legend lists the roles shown.
 */
import * as util from 'node:util';
import { claimTerms, evidenceRole, legendEntry, legendFor, ROLE_LEGEND, splitTerms, type EvidenceRole, type RoleProbabilities, type RoleThresholds } from './evidence-role.js';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The claim's words marked in `text` (escaped HTML). */
export function termsHtml(text: string, terms: ReadonlySet<string>): string {
  return splitTerms(text, terms)
    .map((s) => (s.term ? `<mark>${escapeHtml(s.text)}</mark>` : escapeHtml(s.text)))
    .join('');
}

/** One evidence sentence: coloured by its role (plain when no probability is known), claim words marked. */
export function evidenceSentenceHtml(text: string, terms: ReadonlySet<string>, role: EvidenceRole | undefined): string {
  if (!role) return `<span class="ev">${termsHtml(text, terms)}</span>`;
  const e = legendEntry(role);
  return `<span class="ev ev-${role}" data-role="${role}" title="${escapeHtml(`${e.symbol} ${e.label}: ${e.description}`)}">${termsHtml(text, terms)}</span>`;
}

/** CSS for the classes above, from ROLE_LEGEND's colours. */
export function roleCss(): string {
  const rules = ROLE_LEGEND.map((e) => `.ev-${e.role}{background:${e.background};box-shadow:inset 0 -2px 0 ${e.border}}`).join('\n');
  return `.ev{padding:0 2px;border-radius:2px}\n${rules}\n.ev-not-relevant{box-shadow:none;color:#54595d}\nmark{background:none;color:inherit;font-weight:700;text-decoration:underline;text-decoration-thickness:1px;text-underline-offset:2px}\n.legend{display:flex;flex-wrap:wrap;gap:6px 14px;font-size:.85em;margin:.4em 0}.legend .ev{white-space:nowrap}`;
}

/** A legend for the roles that occur (see legendFor), plus the term marking. */
export function roleLegendHtml(roles: Iterable<EvidenceRole | undefined>, relevance?: number): string {
  const entries = legendFor(roles, relevance);
  if (!entries.length) return '';
  const items = entries.map((e) => `<span><span class="ev ev-${e.role}">${e.symbol} ${escapeHtml(e.label)}</span> ${escapeHtml(e.description)}</span>`);
  items.push('<span><mark>word</mark> a word of the claim</span>');
  return `<div class="legend" role="note" aria-label="Evidence highlighting">${items.join('')}</div>`;
}

// ---- terminals ----

type Style = Parameters<typeof util.styleText>[0];

/** styleText exists from Node 20.12 (engines says >=20): older ones get plain text. The caller decided on colour already, hence no stream check here. */
function styleText(format: Style, text: string): string {
  return typeof util.styleText === 'function' ? util.styleText(format, text, { validateStream: false }) : text;
}

const TERMINAL_STYLE: Record<EvidenceRole, Style> = {
  supports: 'green',
  contradicts: 'red',
  neutral: 'reset',
  relevant: 'yellow',
  'not-relevant': 'dim',
};

/** Colour only on a terminal that wants it (NO_COLOR, FORCE_COLOR, TERM=dumb are respected). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return !!stream.isTTY && process.env.TERM !== 'dumb';
}

/**
 * One evidence sentence for a terminal: "[✓ supports] text". With colour the tag and the text take the
 * role's colour and claim words are bold; without, claim words are wrapped in *asterisks*.
 */
export function evidenceSentenceText(text: string, terms: ReadonlySet<string>, role: EvidenceRole | undefined, opts: { color: boolean }): string {
  const body = splitTerms(text, terms)
    .map((s) => (s.term ? (opts.color ? styleText('bold', s.text) : `*${s.text}*`) : s.text))
    .join('');
  if (!role) return body;
  const e = legendEntry(role);
  const tag = `[${e.symbol} ${e.label}]`;
  return opts.color ? `${styleText(TERMINAL_STYLE[role], tag)} ${role === 'not-relevant' ? styleText('dim', body) : body}` : `${tag} ${body}`;
}

/** "✓ supports: ... · ✗ contradicts: ..." for the roles that occur. */
export function roleLegendText(roles: Iterable<EvidenceRole | undefined>, opts: { color: boolean; relevance?: number }): string {
  const entries = legendFor(roles, opts.relevance);
  if (!entries.length) return '';
  const parts = entries.map((e) => {
    const tag = `[${e.symbol} ${e.label}]`;
    return `${opts.color ? styleText(TERMINAL_STYLE[e.role], tag) : tag} ${e.description}`;
  });
  parts.push(opts.color ? `${styleText('bold', 'bold')}: a word of the claim` : '*word*: a word of the claim');
  return parts.join('\n');
}

/** Convenience for callers holding a claim and one sentence's probabilities. */
export function roleOf(p: RoleProbabilities, thresholds?: Partial<RoleThresholds>): EvidenceRole | undefined {
  return evidenceRole(p, thresholds);
}

export { claimTerms };
