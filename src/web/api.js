// JSON calls to this server's API; errors come back as { error, message, issues } (see /v1/openapi.json).

/** What the page calls each request field, for messages. */
const FIELD_NAMES = {
  wikitext: 'The wikitext box',
  html: 'The HTML box',
  url: 'The URL',
  title: 'The title',
  claim: 'The claim',
  'source.text': 'The source text',
  'source.url': 'The URL',
  'source.file': 'The file',
  'source.file.base64': 'The file',
  pairId: 'The comparison pair',
  choice: 'The choice',
};

/**
 * One validation issue as a sentence for the person at the page: the server's messages are written for
 * API clients ("Too small: expected string to have >=1 characters").
 */
export function humanIssue(issue) {
  const field = FIELD_NAMES[issue.path] || (issue.path ? `The field "${issue.path}"` : 'The request');
  const max = /(?:<=|at most)\s*(\d+)/.exec(issue.message || '');
  switch (issue.code) {
    case 'too_small':
      return `${field} is empty.`;
    case 'too_big':
      return `${field} is too long${max ? ` (at most ${Number(max[1]).toLocaleString()} characters)` : ''}.`;
    case 'invalid_format':
      return `${field} is not a valid ${issue.path === 'url' ? 'http(s) URL' : 'value'}.`;
    case 'custom':
      return `${field}: ${issue.message}.`;
    default:
      return `${field}: ${issue.message}`;
  }
}

export class ApiError extends Error {
  constructor(status, body) {
    const issues = body && Array.isArray(body.issues) ? body.issues.map(humanIssue).join(' ') : '';
    super(issues || (body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function parse(res) {
  if (res.status === 204) return null;
  const text = await res.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text };
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

export async function getJson(path) {
  return parse(await fetch(path, { headers: { accept: 'application/json' } }));
}

export async function postJson(path, body) {
  return parse(await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) }));
}
