// JSON calls to this server's API; errors come back as { error, message, issues } (see /v1/openapi.json).

export class ApiError extends Error {
  constructor(status, body) {
    const issues = body && Array.isArray(body.issues) ? body.issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ') : '';
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
