/*
 * veracite wiki gadget: checks the citations of the Wikipedia article you are reading against a veracite
 * server you run, and marks each footnote in place with its band.
 *
 * One classic script, no imports, no build: load it from your common.js, or as a bookmarklet (see the
 * README, "In the article page: the wiki gadget"). It sends the article's rendered HTML to POST /v1/audits on your server,
 * follows the job's progress (GET /v1/audits/{id}/events, read with fetch so it can send the token), and
 * after each footnote marker adds a small button: supported / partly / not supported / needs review /
 * could not check. The button opens a popover with the claim, the evidence sentence, a better source with
 * a ready {{cite ...}} template (the server's, when it found the source by search: `veracite serve
 * --suggest-from search`; it then says which provider and query found it), and a ready
 * {{failed verification|date=...}} tag, each with a copy button.
 *
 * It never edits the wiki: it reads the page and copies text to your clipboard; you decide what to write.
 * Everything from the server is put in the page as text (textContent), never as HTML. It decides nothing
 * itself: the band, its reason, what to do to check a source and whether a {{failed verification}} tag is
 * proposed all come from the server's citation view (src/audit/citation-view.ts).
 *
 * The server can only check a source it can read: one in its index, a saved copy (`veracite serve
 * --sources FOLDER`) or, with `--fetch`, the live page. Started with neither, every footnote is "could not
 * check", and the panel says so.
 *
 * Settings (all optional), set before the script loads: window.veraciteGadgetConfig = {
 *   server: 'http://127.0.0.1:8080',  // default: the origin the script was loaded from, else this
 *   token: '...',                     // default: asked once and kept for this tab (sessionStorage);
 *                                     // never put it in common.js, which everyone can read
 *   autorun: true | false,            // default: true as a bookmarklet, false in MediaWiki (a Tools link)
 * }
 */
(function (root) {
  'use strict';

  // ---------------------------------------------------------------- logic (no DOM; tested in Node)

  /** The five bands, in the order of the legend. */
  var BANDS = {
    supported: { label: 'supported', symbol: '\u2713' },
    partly: { label: 'partly supported', symbol: '\u25D0' },
    'not-supported': { label: 'not supported', symbol: '\u2717' },
    'needs-review': { label: 'needs review', symbol: '?' },
    'could-not-check': { label: 'could not check', symbol: '\u2013' },
  };
  var BAND_ORDER = ['supported', 'partly', 'not-supported', 'needs-review', 'could-not-check'];

  /** A band as a server may name it ("partly supported", "not_supported", "needs review"...) -> its key. */
  function normaliseBand(name) {
    var s = String(name).toLowerCase().replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '');
    if (s === 'supported' || s === 'supports') return 'supported';
    if (/^(partly|partial|partially)/.test(s)) return 'partly';
    if (/^(not-supported|unsupported|fails|failed|not-support)/.test(s)) return 'not-supported';
    if (/review|unsure|uncertain/.test(s)) return 'needs-review';
    if (/could-not|cannot|unchecked|unreadable|not-checkable|unavailable/.test(s)) return 'could-not-check';
    return undefined;
  }

  /**
   * The band of one citation: the citation view's own `band`, as the server decided it (one decision for
   * the CLI, the web page and this gadget). The gadget never bands a score itself: a view without a band
   * (an older server) is "could not check" when its source was not read, else "needs review".
   */
  function bandOf(view) {
    var given = view && typeof view.band === 'string' ? normaliseBand(view.band) : undefined;
    if (given) return given;
    if (!view || view.sourceStatus !== 'found' || view.verifiability === null || view.verifiability === undefined) return 'could-not-check';
    return 'needs-review';
  }

  /**
   * The {{failed verification}} tag to offer, or undefined: only when the server proposes one. The view may
   * carry the tag as wikitext (`tag`), or as the decision's {template, why} (`tag`, `decision.tag`: dated
   * here, with the server's reason); a view with a `decision` and no tag proposes none. Older servers:
   * `proposeTag`, else the citation's flag (`failedVerification`, as the web page's worklist reads it).
   */
  function proposedTag(view, today) {
    if (!view) return undefined;
    var d = today || new Date();
    var tags = [view.tag, view.failedVerificationTag, view.decision && view.decision.tag];
    for (var i = 0; i < tags.length; i++) {
      var t = tags[i];
      if (typeof t === 'string' && /^\{\{\s*failed verification/i.test(t)) return t;
      if (t && typeof t === 'object' && /failed verification/i.test(String(t.template || ''))) {
        var reason = t.why ? param('veracite: ' + t.why) : '';
        return '{{failed verification|date=' + MONTHS[d.getUTCMonth()] + ' ' + d.getUTCFullYear() + (reason ? '|reason=' + reason : '') + '}}';
      }
    }
    if (view.decision && typeof view.decision === 'object') return undefined;
    var propose = typeof view.proposeTag === 'boolean' ? view.proposeTag : view.failedVerification === true;
    return propose ? failedVerificationTag(d) : undefined;
  }

  /**
   * What the panel says when the audit is over and not one source could be read: the server has no way to
   * read the cited pages (no --fetch, no --sources), so no footnote was checked. Undefined otherwise.
   */
  function nothingCheckedNote(views) {
    if (!views.length) return undefined;
    for (var i = 0; i < views.length; i++) if (bandOf(views[i]) !== 'could-not-check') return undefined;
    var n = views.length;
    return (
      'Nothing was checked: the server could not read ' + (n === 1 ? 'the cited source' : 'any of the ' + n + ' cited sources') + '. ' +
      'It reads a source from its index, from saved copies, or from the web: start it again with ' +
      '--fetch (on a machine that can reach the cited sites) or with --sources FOLDER (a folder of saved sources), then check again.'
    );
  }

  /** The cited source's best evidence sentence (highest score), or undefined. */
  function evidenceOf(sourceView) {
    var best;
    var sentences = (sourceView && sourceView.sentences) || [];
    for (var i = 0; i < sentences.length; i++) {
      var s = sentences[i];
      if (!s.evidence) continue;
      if (!best || (s.score || 0) > (best.score || 0)) best = s;
    }
    return best;
  }

  /** DOI, PubMed and arXiv ids a suggested source's URL or id names. */
  function workIdsOf(source) {
    var ids = {};
    var text = [source.url || '', source.docId || ''].join(' ');
    var doi = /\b(10\.\d{4,9}\/[^\s"<>|{}]+)/i.exec(decodeSafe(text));
    if (doi) ids.doi = doi[1].replace(/[.,;)]+$/, '');
    var pmid = /(?:pubmed\.ncbi\.nlm\.nih\.gov\/|ncbi\.nlm\.nih\.gov\/pubmed\/|\bpmid[:\s]*)(\d{1,9})\b/i.exec(text);
    if (pmid) ids.pmid = pmid[1];
    var arxiv = /(?:arxiv\.org\/(?:abs|pdf)\/|\barxiv:)(\d{4}\.\d{4,5})(?:v\d+)?/i.exec(text);
    if (arxiv) ids.arxiv = arxiv[1];
    return ids;
  }

  function decodeSafe(s) {
    try {
      return decodeURIComponent(s);
    } catch (e) {
      return s;
    }
  }

  /**
   * A template parameter's value, inert in wikitext (the server's rule, src/search/cite-template.ts): one
   * line; < > [ ] { } = as character references (so "</ref>", "<!--", "[[", "{{" start or end nothing);
   * runs of 3+ tildes (a signature) and doubled underscores (__NOINDEX__) broken by references; "://" as
   * "&#58;//"; a pipe as {{!}}. The references survive a paste into the editor and are decoded only when
   * the page is rendered, after the template's parameters are split and after signatures are expanded.
   */
  var REFERENCES = { '<': '&lt;', '>': '&gt;', '[': '&#91;', ']': '&#93;', '{': '&#123;', '}': '&#125;', '=': '&#61;' };
  function param(v) {
    return String(v == null ? '' : v)
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
      .replace(/[<>[\]{}=]/g, function (c) {
        return REFERENCES[c];
      })
      .replace(/~{3,}/g, function (m) {
        return new Array(m.length + 1).join('&#126;');
      })
      .replace(/_(?=_)/g, '&#95;')
      .replace(/:\/\//g, '&#58;//')
      .replace(/\|/g, '{{!}}');
  }

  /** A URL as an inert |url= value: http(s) only, the characters CS1 says to encode percent-encoded (and ~, __). */
  function urlParam(u) {
    var url = String(u == null ? '' : u).trim();
    if (!/^https?:\/\/[^\s]/i.test(url)) return '';
    return url
      .replace(/[\s"'<>[\]{}|~^`]/g, function (c) {
        return '%' + ('0' + c.charCodeAt(0).toString(16).toUpperCase()).slice(-2);
      })
      .replace(/_(?=_)/g, '%5F');
  }

  /**
   * Whether a citation template is safe to paste: one {{cite ...}} of " |name=value" parameters whose values
   * hold no markup (a pipe only as {{!}}; "=" and "://" only in |url=). The server's template is offered only
   * when it is; an older or foreign server's is replaced by one made here.
   */
  function inertTemplate(t) {
    if (typeof t !== 'string') return false;
    var m = /^\{\{cite [A-Za-z]+((?: \|[a-z0-9-]+=[^|]*)*)\}\}$/.exec(t.replace(/\{\{!\}\}/g, '\u0001'));
    if (!m) return false;
    var parts = m[1].split(' |').slice(1);
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      var name = parts[i].slice(0, eq);
      var value = parts[i].slice(eq + 1);
      if (/[<>[\]{}\r\n]|~~~|__/.test(value)) return false;
      if (name !== 'url' && /=|:\/\//.test(value)) return false;
    }
    return true;
  }

  /** YYYY-MM-DD of a date (UTC). */
  function isoDay(date) {
    return date.toISOString().slice(0, 10);
  }

  var MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

  /**
   * A ready citation template for a suggested source: {{cite journal}} when it has a DOI or PubMed id,
   * {{cite arXiv}} for an arXiv preprint, else {{cite web}} with the URL and today's access date.
   */
  function citeTemplate(source, today) {
    var ids = workIdsOf(source);
    var title = param(source.title);
    if (ids.doi || ids.pmid) {
      var parts = ['{{cite journal'];
      if (title) parts.push('title=' + title);
      if (ids.doi) parts.push('doi=' + param(ids.doi));
      if (ids.pmid) parts.push('pmid=' + param(ids.pmid));
      return parts.join(' |') + '}}';
    }
    if (ids.arxiv) return '{{cite arXiv |eprint=' + param(ids.arxiv) + (title ? ' |title=' + title : '') + '}}';
    var web = ['{{cite web'];
    var url = urlParam(source.url);
    if (url) web.push('url=' + url);
    web.push('title=' + (title || param(source.url) || 'Untitled'));
    web.push('access-date=' + isoDay(today || new Date()));
    return web.join(' |') + '}}';
  }

  /**
   * The citation to offer for a better source: the server's own when it gives one (a source found by
   * search: authors, journal, date, identifiers and the day its text was read, as `veracite audit
   * --suggest-from search` prints it), else one made here from its title and URL (an index's document).
   */
  function betterTemplate(source, today) {
    if (source && inertTemplate(source.template)) return source.template;
    return citeTemplate(source, today);
  }

  /** "Found by OpenAlex search for “grey seal pups”" for a source found by search; undefined otherwise. */
  function foundByText(source) {
    var f = source && source.foundBy;
    if (!f || typeof f !== 'object') return undefined;
    var who = typeof f.label === 'string' && f.label ? f.label : typeof f.provider === 'string' ? f.provider : 'search';
    return 'Found by ' + who + (typeof f.query === 'string' && f.query ? ' for \u201C' + f.query + '\u201D' : '');
  }

  /** {{failed verification|date=November 2025}}: maintenance tags are dated by month and year. */
  function failedVerificationTag(today) {
    var d = today || new Date();
    return '{{failed verification|date=' + MONTHS[d.getUTCMonth()] + ' ' + d.getUTCFullYear() + '}}';
  }

  function unescapeHtml(s) {
    return s.replace(/&quot;/g, '"').replace(/&#0*39;|&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  }

  /**
   * The footnote a citation came from: the server reads a rendered article's references from their
   * `<li id="cite_note-...">`, which it keeps as the source's raw text.
   */
  function noteIdOf(view) {
    var raw = view && view.source && typeof view.source.raw === 'string' ? view.source.raw : '';
    var m = /^\s*<li\b[^>]*?\sid\s*=\s*"([^"]+)"/i.exec(raw) || /^\s*<li\b[^>]*?\sid\s*=\s*'([^']+)'/i.exec(raw);
    return m ? unescapeHtml(m[1]) : undefined;
  }

  /** Letters and digits only, lower case: what a claim and the page's text are compared on. */
  function squash(s) {
    return String(s || '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  }

  /**
   * Which footnote marker each citation is. `markers`: every marker of the page in reading order, as
   * {noteId, text} (the text of the paragraph or item it sits in, without footnote numbers). The server
   * numbers only the markers it audits (prose ones), so each citation takes the next unused marker of its
   * footnote whose text holds its claim, and failing that the next unused marker of its footnote.
   * Returns citationId -> marker position.
   */
  function assignMarkers(views, markers) {
    var byNote = {};
    markers.forEach(function (m, i) {
      (byNote[m.noteId] = byNote[m.noteId] || []).push(i);
    });
    var used = {};
    var out = {};
    views
      .slice()
      .sort(function (a, b) {
        return a.index - b.index;
      })
      .forEach(function (v) {
        var note = noteIdOf(v);
        var candidates = (note && byNote[note]) || [];
        var free = candidates.filter(function (i) {
          return !used[i];
        });
        if (!free.length) return;
        var claim = squash(v.claim).slice(0, 60);
        var hit = free.find(function (i) {
          return claim && squash(markers[i].text).indexOf(claim) >= 0;
        });
        var chosen = hit !== undefined ? hit : free[0];
        used[chosen] = true;
        out[v.citationId] = chosen;
      });
    return out;
  }

  /** Server-sent events from a text stream, chunk by chunk: push(text) returns the complete events. */
  function sseParser() {
    var buf = '';
    return function push(text) {
      buf += text.replace(/\r\n?/g, '\n');
      var events = [];
      var end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        var block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        var e = { event: 'message', data: [], id: undefined };
        block.split('\n').forEach(function (line) {
          if (!line || line[0] === ':') return;
          var colon = line.indexOf(':');
          var field = colon < 0 ? line : line.slice(0, colon);
          var value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') e.event = value;
          else if (field === 'data') e.data.push(value);
          else if (field === 'id') e.id = value;
        });
        if (e.data.length) events.push({ event: e.event, id: e.id, data: e.data.join('\n') });
      }
      return events;
    };
  }

  var logic = {
    BANDS: BANDS,
    bandOf: bandOf,
    proposedTag: proposedTag,
    nothingCheckedNote: nothingCheckedNote,
    normaliseBand: normaliseBand,
    evidenceOf: evidenceOf,
    workIdsOf: workIdsOf,
    citeTemplate: citeTemplate,
    betterTemplate: betterTemplate,
    inertTemplate: inertTemplate,
    foundByText: foundByText,
    failedVerificationTag: failedVerificationTag,
    noteIdOf: noteIdOf,
    assignMarkers: assignMarkers,
    sseParser: sseParser,
  };

  var api = (root.veraciteGadget = root.veraciteGadget || {});
  api.logic = logic;
  if (typeof document === 'undefined') return; // loaded in Node for its logic
  if (api.loaded) {
    // Loaded again (a bookmarklet clicked twice): run again.
    if (api.run) api.run();
    return;
  }
  api.loaded = true;

  // ---------------------------------------------------------------- the page

  var config = root.veraciteGadgetConfig || {};
  var script = document.currentScript;
  var mw = root.mw;
  var TOKEN_KEY = 'veracite-gadget-token';

  function serverUrl() {
    if (config.server) return String(config.server).replace(/\/+$/, '');
    if (script && script.src && /\/veracite-gadget\.js(?:[?#].*)?$/.test(script.src)) return new URL(script.src).origin;
    return 'http://127.0.0.1:8080';
  }

  function storedToken() {
    if (config.token) return config.token;
    try {
      return root.sessionStorage.getItem(TOKEN_KEY) || undefined;
    } catch (e) {
      return undefined;
    }
  }

  /**
   * Asks the editor for the server's token, in words: what it is and where it comes from. `refused`: a
   * token was sent and the server did not accept it.
   */
  function tokenQuestion(refused) {
    return (
      (refused ? 'Your veracite server did not accept that token.\n\n' : 'Your veracite server at ' + serverUrl() + ' asks for its token before it checks anything.\n\n') +
      'The token is the secret you chose when you started it: the value of --token (or of VERACITE_TOKEN) on the ' +
      '`veracite serve` command line. Its start-up output says "token required" when it wants one.\n\n' +
      'Paste it here. It stays in this browser tab only and is never written to the wiki.'
    );
  }

  function askToken(refused) {
    var t = root.prompt(tokenQuestion(refused));
    if (!t || !t.trim()) return undefined;
    try {
      root.sessionStorage.setItem(TOKEN_KEY, t.trim());
    } catch (e) {
      /* storage off: asked again next time */
    }
    return t.trim();
  }

  function forgetToken() {
    try {
      root.sessionStorage.removeItem(TOKEN_KEY);
    } catch (e) {
      /* nothing kept */
    }
  }

  function el(tag, attrs) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  var CSS = [
    // The footnote and its marker are one unbreakable unit: a line never ends between them.
    '.veracite-ref{white-space:nowrap}',
    '.veracite-mark{font:bold 11px/1 system-ui,sans-serif;margin:0 1px 0 1px;padding:1px 4px;border-radius:8px;border:1px solid;cursor:pointer;vertical-align:super;color:#fff;white-space:nowrap}',
    '.veracite-mark[data-band="supported"]{background:#1d7a3a;border-color:#1d7a3a}',
    '.veracite-mark[data-band="partly"]{background:#b7791f;border-color:#b7791f}',
    '.veracite-mark[data-band="not-supported"]{background:#b42318;border-color:#b42318}',
    '.veracite-mark[data-band="needs-review"]{background:#6b46c1;border-color:#6b46c1}',
    '.veracite-mark[data-band="could-not-check"]{background:#eef0f3;border-color:#8a96a3;color:#44505c}',
    '#veracite-panel{position:fixed;right:16px;bottom:16px;z-index:1000;box-sizing:border-box;width:300px;max-width:calc(100vw - 32px);max-height:calc(100vh - 32px);overflow:auto;background:#fff;color:#1d2329;border:1px solid #a2a9b1;border-radius:6px;box-shadow:0 2px 10px rgba(0,0,0,.2);font:13px/1.4 system-ui,sans-serif;padding:10px 12px}',
    '#veracite-panel h2{all:unset;display:block;font-weight:700;font-size:14px;margin-bottom:4px}',
    '#veracite-panel progress{width:100%}',
    '#veracite-panel .veracite-legend{display:flex;flex-wrap:wrap;gap:4px 10px;margin:6px 0}',
    '#veracite-panel .veracite-error{color:#b42318;font-weight:600}',
    '#veracite-panel .veracite-notice{background:#fef6e7;border:1px solid #e2b546;border-radius:4px;padding:6px 8px;margin:6px 0}',
    '#veracite-panel code,#veracite-popover code{font:12px ui-monospace,monospace;background:#eef0f3;padding:0 2px}',
    '#veracite-panel button,#veracite-popover button{font:inherit;padding:2px 8px;cursor:pointer}',
    // Placed by placePopover: inside the viewport, beside the marker's line, scrolling inside when long.
    '#veracite-popover{position:absolute;z-index:1001;box-sizing:border-box;width:420px;overflow:auto;overscroll-behavior:contain;overflow-wrap:anywhere;background:#fff;color:#1d2329;border:1px solid #a2a9b1;border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.25);font:13px/1.45 system-ui,sans-serif;padding:10px 12px}',
    '#veracite-popover h3{all:unset;display:block;font-weight:700;font-size:14px;margin:0 0 6px}',
    '#veracite-popover .veracite-number{color:#54595d;font-weight:400}',
    '#veracite-popover h4{all:unset;display:block;font-weight:600;margin:8px 0 2px;color:#54595d}',
    '#veracite-popover blockquote{margin:0;padding:2px 8px;border-left:3px solid #c8ccd1}',
    '#veracite-popover .veracite-evidence{background:#f3f7ee;padding:2px 4px}',
    '#veracite-popover textarea{width:100%;box-sizing:border-box;font:12px ui-monospace,monospace;resize:vertical}',
    '#veracite-popover .veracite-close{float:right}',
    '#veracite-popover .veracite-note{color:#54595d;font-size:12px;margin-top:8px}',
  ].join('\n');

  var state = { results: {}, markers: [], total: 0, running: false, controller: null };

  function contentRoot() {
    return document.querySelector('#mw-content-text .mw-parser-output') || document.querySelector('#mw-content-text') || document.querySelector('.mw-parser-output') || document.body;
  }

  function articleTitle() {
    if (mw && mw.config && mw.config.get('wgTitle')) return String(mw.config.get('wgTitle'));
    var h = document.querySelector('#firstHeading');
    if (h && h.textContent.trim()) return h.textContent.trim();
    return document.title.replace(/ [-\u2013\u2014] Wikipedia$/, '').trim();
  }

  /** The article as rendered, without anything this gadget added. */
  function articleHtml(title) {
    var content = document.querySelector('#mw-content-text') || contentRoot();
    var copy = content.cloneNode(true);
    copy.querySelectorAll('.veracite-mark, #veracite-panel, #veracite-popover').forEach(function (n) {
      n.remove();
    });
    var esc = function (s) {
      return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    };
    return '<!DOCTYPE html><html><head><meta charset="utf-8"><title>' + esc(title) + '</title></head><body><h1 id="firstHeading">' + esc(title) + '</h1>' + copy.outerHTML + '</body></html>';
  }

  /** Every footnote marker of the article, in reading order, with the text around it. */
  function findMarkers() {
    var out = [];
    contentRoot()
      .querySelectorAll('sup.reference')
      .forEach(function (sup) {
        var a = sup.querySelector('a[href^="#cite_note-"]');
        if (!a) return;
        var block = sup.closest('p, li, dd, dt, blockquote, td, th, figcaption') || sup.parentNode;
        var copy = block.cloneNode(true);
        copy.querySelectorAll('sup.reference, .veracite-mark').forEach(function (n) {
          n.remove();
        });
        out.push({ sup: sup, noteId: decodeSafe(a.getAttribute('href').slice(1)), text: copy.textContent });
      });
    return out;
  }

  // ---- the panel

  var panel;
  function ensurePanel() {
    if (panel && panel.isConnected) return panel;
    if (!document.getElementById('veracite-style')) document.head.append(el('style', { id: 'veracite-style', text: CSS }));
    panel = el(
      'div',
      { id: 'veracite-panel', role: 'region', 'aria-label': 'veracite citation check' },
      el('h2', { text: 'veracite' }),
      el('div', { id: 'veracite-status', 'aria-live': 'polite', text: 'Checks each citation of this article against your veracite server (' + serverUrl() + '). Nothing is written to the wiki.' }),
      el('progress', { id: 'veracite-progress', max: '1', value: '0', hidden: true }),
      el('div', { class: 'veracite-legend', id: 'veracite-legend' }),
      el('div', { class: 'veracite-notice', id: 'veracite-notice', role: 'status', hidden: true }),
      el('div', { class: 'veracite-error', id: 'veracite-error', role: 'alert', hidden: true }),
      el(
        'div',
        {},
        el('button', { type: 'button', id: 'veracite-run', onclick: function () {
          run();
        } }, 'Check citations'),
        ' ',
        el('button', { type: 'button', id: 'veracite-close-panel', onclick: function () {
          panel.hidden = true;
        } }, 'Hide'),
      ),
    );
    document.body.append(panel);
    return panel;
  }

  function setStatus(text) {
    document.getElementById('veracite-status').textContent = text;
  }

  function setError(text) {
    var e = document.getElementById('veracite-error');
    e.textContent = text || '';
    e.hidden = !text;
  }

  function setNotice(text) {
    var e = document.getElementById('veracite-notice');
    e.textContent = text || '';
    e.hidden = !text;
  }

  function setProgress(done, total) {
    var p = document.getElementById('veracite-progress');
    p.hidden = false;
    p.max = Math.max(total, 1);
    p.value = done;
  }

  function renderLegend() {
    var counts = {};
    Object.keys(state.results).forEach(function (id) {
      var b = bandOf(state.results[id]);
      counts[b] = (counts[b] || 0) + 1;
    });
    var legend = document.getElementById('veracite-legend');
    legend.replaceChildren.apply(
      legend,
      BAND_ORDER.filter(function (b) {
        return counts[b];
      }).map(function (b) {
        return el('span', { 'data-band-count': b }, el('span', { class: 'veracite-mark', 'data-band': b, text: BANDS[b].symbol }), ' ' + BANDS[b].label + ': ' + counts[b]);
      }),
    );
  }

  // ---- marks and popover

  function clearMarks() {
    document.querySelectorAll('.veracite-mark').forEach(function (n) {
      if (!n.closest('#veracite-panel')) n.remove();
    });
    // Put each footnote back where it was.
    document.querySelectorAll('span.veracite-ref').forEach(function (w) {
      w.replaceWith.apply(w, Array.prototype.slice.call(w.childNodes));
    });
    closePopover();
  }

  /** The footnote's wrapper that keeps it and its marker on one line (made on first use). */
  function refWrapper(sup) {
    var parent = sup.parentNode;
    if (parent && parent.classList && parent.classList.contains('veracite-ref')) return parent;
    var w = el('span', { class: 'veracite-ref' });
    sup.replaceWith(w);
    w.append(sup);
    return w;
  }

  function scoreText(view) {
    if (view.verifiability === null || view.verifiability === undefined) return '';
    return (view.scoreSignal === 'probability' ? 'P(supports) ' : 'score ') + Number(view.verifiability).toFixed(2);
  }

  function placeMarks() {
    var views = Object.keys(state.results).map(function (id) {
      return state.results[id];
    });
    var where = assignMarkers(views, state.markers);
    views.forEach(function (v) {
      var i = where[v.citationId];
      if (i === undefined) return;
      var sup = state.markers[i].sup;
      var band = bandOf(v);
      var existing = sup.nextElementSibling && sup.nextElementSibling.classList.contains('veracite-mark') ? sup.nextElementSibling : null;
      // The page's own footnote number ("[12]"), shown with the band so that a reader can name the citation.
      var number = (sup.textContent || '').replace(/\s+/g, '');
      var label = 'veracite: ' + (number ? 'citation ' + number + ', ' : '') + BANDS[band].label + (scoreText(v) ? ' (' + scoreText(v) + ')' : '') + '. Show details';
      var mark = el('button', { type: 'button', class: 'veracite-mark', 'data-band': band, 'data-citation': v.citationId, 'data-note': state.markers[i].noteId, 'aria-label': label, title: label, text: BANDS[band].symbol });
      mark.addEventListener('click', function (ev) {
        ev.preventDefault();
        ev.stopPropagation();
        openPopover(mark, v, number);
      });
      if (existing) existing.replaceWith(mark);
      else refWrapper(sup).append(mark);
    });
  }

  var popover;
  var popoverMark;
  function closePopover() {
    if (popover) popover.remove();
    popover = null;
    popoverMark = null;
  }

  function copyButton(text, label) {
    var b = el('button', { type: 'button', class: 'veracite-copy' }, label);
    b.addEventListener('click', function () {
      var done = function () {
        b.textContent = 'Copied';
        b.setAttribute('data-copied', 'true');
      };
      var fallback = function () {
        var t = el('textarea', { style: 'position:fixed;left:-9999px' });
        t.value = text;
        document.body.append(t);
        t.select();
        try {
          document.execCommand('copy');
          done();
        } catch (e) {
          b.textContent = 'Select and copy it yourself';
        }
        t.remove();
      };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
      else fallback();
    });
    return b;
  }

  function snippet(text, copyLabel, cls) {
    var box = el('textarea', { readonly: true, rows: '2', class: cls, 'aria-label': copyLabel });
    box.value = text;
    return el('div', {}, box, copyButton(text, copyLabel));
  }

  function openPopover(mark, v, number) {
    closePopover();
    var band = bandOf(v);
    var ev = evidenceOf(v.existing);
    var better = v.suggestions && v.suggestions[0];
    var betterEv = better && evidenceOf(better);
    var now = new Date();
    var tag = proposedTag(v, now);
    popover = el(
      'div',
      { id: 'veracite-popover', role: 'dialog', 'aria-label': 'veracite: citation check', 'data-band': band, 'data-citation': v.citationId },
      el('button', { type: 'button', class: 'veracite-close', 'aria-label': 'Close', onclick: closePopover }, '\u00D7'),
      el('h3', {}, number ? el('span', { class: 'veracite-number', text: number + ' ' }) : null, el('span', { class: 'veracite-mark', 'data-band': band, text: BANDS[band].symbol }), ' ' + BANDS[band].label.charAt(0).toUpperCase() + BANDS[band].label.slice(1), scoreText(v) ? el('span', { class: 'veracite-score', text: ' \u00B7 ' + scoreText(v) }) : null),
      el('h4', { text: 'Claim' }),
      el('blockquote', { class: 'veracite-claim', text: v.claim }),
      el('h4', { text: 'Cited source' }),
      v.sourceStatus === 'found'
        ? el('p', { class: 'veracite-evidence-box' }, ev ? el('span', { class: 'veracite-evidence', text: ev.text }) : 'No sentence of the source reads as evidence for the claim.', v.existing && v.existing.title ? el('span', { class: 'veracite-source-title', text: ' \u2014 ' + v.existing.title }) : null)
        : el('p', { class: 'veracite-unchecked', text: 'Could not be read (' + v.sourceStatus + ')' + (v.sourceReason ? ': ' + v.sourceReason : '') + '.' }),
      v.coverage && v.coverage.text ? el('p', { class: 'veracite-note', text: v.coverage.text }) : null,
      v.bandReason ? el('p', { class: 'veracite-note veracite-why', text: 'Why this band: ' + v.bandReason + (/[.!?]$/.test(v.bandReason) ? '' : '.') }) : null,
      v.howToCheck ? el('p', { class: 'veracite-note veracite-how', text: 'To check it: ' + v.howToCheck + (/[.!?]$/.test(v.howToCheck) ? '' : '.') }) : null,
      better
        ? el(
            'div',
            { class: 'veracite-better' },
            el('h4', { text: 'A better source' + (better.score !== undefined ? ' (' + (v.scoreSignal === 'probability' ? 'P(supports) ' : 'score ') + Number(better.score).toFixed(2) + ')' : '') }),
            el('p', {}, better.url && /^https?:\/\//i.test(better.url) ? el('a', { href: better.url, target: '_blank', rel: 'noopener noreferrer', text: better.title || better.url }) : el('span', { text: better.title || 'Untitled' })),
            foundByText(better) ? el('p', { class: 'veracite-note veracite-found-by', text: foundByText(better) }) : null,
            betterEv ? el('p', {}, el('span', { class: 'veracite-evidence', text: betterEv.text })) : null,
            snippet(betterTemplate(better, now), 'Copy citation', 'veracite-cite'),
          )
        : null,
      // Search for a better source: a provider that failed is named, so that "nothing better" is not read as "none exists".
      v.searchFailures && v.searchFailures.length && band !== 'supported'
        ? el('p', { class: 'veracite-note veracite-search-failed', text: 'Searching for a better source: ' + v.searchFailures.join('; ') + (/[.!?]$/.test(v.searchFailures[v.searchFailures.length - 1]) ? '' : '.') })
        : null,
      tag ? el('div', { class: 'veracite-tag' }, el('h4', { text: 'Maintenance tag (after the footnote)' }), snippet(tag, 'Copy tag', 'veracite-fv')) : null,
      el('p', { class: 'veracite-note', text: 'veracite writes nothing to the wiki: copy what you need into the editor, after reading the source yourself.' }),
    );
    popoverMark = mark;
    document.body.append(popover);
    placePopover();
  }

  /**
   * Puts the open popover inside the viewport, beside its marker's line: below it when it fits there (the
   * claim is the text before the marker, on its line and above, so below covers none of it), else above
   * when it fits there, else on the roomier side, scrolling inside. Never wider than the viewport.
   */
  function placePopover() {
    if (!popover || !popoverMark) return;
    var margin = 8;
    var gap = 6;
    var vw = document.documentElement.clientWidth;
    var vh = document.documentElement.clientHeight;
    popover.style.maxWidth = Math.max(160, vw - 2 * margin) + 'px';
    popover.style.maxHeight = 'none';
    var natural = popover.offsetHeight;
    var width = popover.offsetWidth;
    var r = popoverMark.getBoundingClientRect();
    var below = vh - r.bottom - gap - margin;
    var above = r.top - gap - margin;
    var top;
    if (natural <= below || below >= Math.min(natural, 320)) {
      top = r.bottom + gap;
      popover.style.maxHeight = Math.max(80, below) + 'px';
    } else if (natural <= above || above > below) {
      var h = Math.min(natural, Math.max(80, above));
      popover.style.maxHeight = h + 'px';
      top = r.top - gap - h;
    } else {
      top = r.bottom + gap;
      popover.style.maxHeight = Math.max(80, below) + 'px';
    }
    // Keep it on screen even when the marker itself is partly off it.
    top = Math.max(margin, Math.min(top, vh - margin - popover.offsetHeight));
    var left = Math.max(margin, Math.min(r.left, vw - margin - width));
    // Viewport coordinates -> those of the popover's containing block (the page, or a positioned body).
    var base = containingBlockOrigin();
    popover.style.left = left - base.left + 'px';
    popover.style.top = top - base.top + 'px';
  }

  function containingBlockOrigin() {
    var body = document.body;
    if (root.getComputedStyle(body).position !== 'static') {
      var b = body.getBoundingClientRect();
      return { left: b.left + body.clientLeft, top: b.top + body.clientTop };
    }
    // The initial containing block: the page's origin, scrolled.
    return { left: -root.scrollX, top: -root.scrollY };
  }

  root.addEventListener('resize', placePopover);

  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') closePopover();
  });
  document.addEventListener('click', function (e) {
    if (popover && !popover.contains(e.target) && !(e.target.classList && e.target.classList.contains('veracite-mark'))) closePopover();
  });

  // ---- talking to the server

  function request(path, opts, token) {
    var headers = Object.assign({ accept: 'application/json' }, opts.headers || {});
    if (token) headers.authorization = 'Bearer ' + token;
    // The token goes as a header; never the page's cookies (credentials: 'omit').
    return fetch(serverUrl() + path, Object.assign({}, opts, { headers: headers, credentials: 'omit', mode: 'cors' }));
  }

  async function errorText(res) {
    var text = await res.text();
    try {
      var body = JSON.parse(text);
      return body.message || body.error || 'HTTP ' + res.status;
    } catch (e) {
      return 'HTTP ' + res.status;
    }
  }

  async function createJob(title, html) {
    var token = storedToken();
    var body = JSON.stringify({ html: html, title: title });
    for (var attempt = 0; attempt < 3; attempt++) {
      var res = await request('/v1/audits', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body }, token);
      if (res.status === 401 && !config.token && attempt < 2) {
        if (token) forgetToken();
        token = askToken(!!token);
        if (!token) throw new Error('No token given, so nothing was checked. Click "Check citations" and paste the token you started `veracite serve` with (--token).');
        continue;
      }
      if (res.status === 401) {
        forgetToken();
        throw new Error('The server did not accept the token. Use the one you started `veracite serve` with (--token or VERACITE_TOKEN), then check again.');
      }
      if (!res.ok) throw new Error(await errorText(res));
      var job = await res.json();
      return { id: job.id, token: token };
    }
    throw new Error('The server did not accept the token.');
  }

  function onCitation(d) {
    state.results[d.result.citationId] = d.result;
    state.total = d.total;
    setProgress(Object.keys(state.results).length, d.total);
    setStatus('Checking \u201C' + articleTitle() + '\u201D: ' + Object.keys(state.results).length + ' / ' + d.total + ' citations');
    placeMarks();
    renderLegend();
  }

  function onStatus(job) {
    state.total = job.total;
    if (job.status === 'queued') setStatus('Waiting for the server (queued)\u2026');
    else if (job.status === 'running' && !job.total) setStatus('Reading the article\u2026');
  }

  function onDone(job) {
    var placed = document.querySelectorAll('.veracite-mark[data-citation]').length;
    var n = Object.keys(state.results).length;
    if (job.status === 'done') {
      setNotice(
        nothingCheckedNote(
          Object.keys(state.results).map(function (id) {
            return state.results[id];
          }),
        ),
      );
      setStatus('Done: ' + n + ' citation' + (n === 1 ? '' : 's') + ', ' + placed + ' marked in the page' + (job.article && job.article.skippedRefs ? ' (' + job.article.skippedRefs + ' footnotes outside the prose were not checked)' : '') + '.');
    } else {
      setError('The audit ' + job.status + (job.error ? ': ' + job.error : '') + '.');
    }
    setProgress(n, Math.max(n, job.total || 0));
    if (panel) panel.setAttribute('data-status', job.status);
  }

  /** Follows the job's events to the end, reconnecting (with Last-Event-ID) when the stream drops. */
  async function follow(id, token) {
    var last = '';
    for (var tries = 0; tries < 5; tries++) {
      var headers = { accept: 'text/event-stream' };
      if (last) headers['last-event-id'] = last;
      var res = await request('/v1/audits/' + encodeURIComponent(id) + '/events', { headers: headers, signal: state.controller.signal }, token);
      if (!res.ok || !res.body) throw new Error(await errorText(res));
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var push = sseParser();
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        var events = push(decoder.decode(chunk.value, { stream: true }));
        for (var i = 0; i < events.length; i++) {
          var e = events[i];
          if (e.id) last = e.id;
          var data = JSON.parse(e.data);
          if (e.event === 'citation') onCitation(data);
          else if (e.event === 'status') onStatus(data);
          else if (e.event === 'done') {
            onDone(data);
            return;
          } else if (e.event === 'shutdown') throw new Error('The server is shutting down; check again when it is back.');
        }
      }
      await new Promise(function (r) {
        setTimeout(r, 1000);
      });
    }
    throw new Error('Lost the connection to the server.');
  }

  async function run() {
    ensurePanel().hidden = false;
    if (state.running) return;
    state.running = true;
    state.results = {};
    state.controller = new AbortController();
    panel.removeAttribute('data-status');
    setError('');
    setNotice('');
    clearMarks();
    renderLegend();
    document.getElementById('veracite-run').disabled = true;
    try {
      var title = articleTitle();
      state.markers = findMarkers();
      setStatus('Sending \u201C' + title + '\u201D to ' + serverUrl() + '\u2026');
      var job = await createJob(title, articleHtml(title));
      panel.setAttribute('data-job', job.id);
      setStatus('Reading the article\u2026');
      await follow(job.id, job.token);
    } catch (e) {
      var msg = e && e.message ? e.message : String(e);
      // fetch says only "Failed to fetch" when the server is down or refuses this origin (CORS).
      if (/failed to fetch|networkerror|load failed/i.test(msg)) msg = 'Cannot reach ' + serverUrl() + ': is `veracite serve --allow-origin ' + location.origin + ' --token ...` running?';
      setError(msg);
      panel.setAttribute('data-status', 'error');
    } finally {
      state.running = false;
      document.getElementById('veracite-run').disabled = false;
    }
  }

  api.run = run;
  api.config = config;

  function init() {
    var isArticle = !mw || !mw.config || (mw.config.get('wgNamespaceNumber') === 0 && mw.config.get('wgAction') === 'view');
    if (!isArticle) return;
    var autorun = config.autorun !== undefined ? !!config.autorun : !mw;
    if (mw && mw.util && mw.util.addPortletLink) {
      var link = mw.util.addPortletLink('p-tb', '#', 'Check citations (veracite)', 't-veracite', 'Check this article\'s citations with your veracite server');
      if (link) link.addEventListener('click', function (e) {
        e.preventDefault();
        run();
      });
    }
    // In MediaWiki the Tools link starts it; elsewhere (a bookmarklet, a saved page) the panel does.
    if (!mw || autorun) ensurePanel();
    if (autorun) run();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})(typeof window !== 'undefined' ? window : globalThis);
