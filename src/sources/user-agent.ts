/**
 * The User-Agent every API and page request carries. Wikimedia's User-Agent policy (enforced since 2025:
 * https://foundation.wikimedia.org/wiki/Policy:Wikimedia_Foundation_User-Agent_Policy) asks for
 * `<client>/<version> (<contact>)`: an e-mail address or a page where the operator can be reached, so that a
 * client causing trouble is written to before it is blocked. The user's own address (`--contact-email` or
 * VERACITE_CONTACT_EMAIL) is the contact that reaches the person running it; without one, the project's page.
 */
import { z } from 'zod';

/** Where the project lives (the contact when the user gave none). */
export const PROJECT_URL = 'https://github.com/veracite/veracite';
export const CONTACT_EMAIL_ENV = 'VERACITE_CONTACT_EMAIL';

/** The contact e-mail from the environment, when it holds a valid address. */
export function envContactEmail(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const v = env[CONTACT_EMAIL_ENV]?.trim();
  return v && z.email().safeParse(v).success ? v : undefined;
}

export function userAgent(email: string | undefined): string {
  return `veracite-citation-audit/0.1 (${email ? `mailto:${email}` : `+${PROJECT_URL}`}; checks Wikipedia citations) node/${process.versions.node}`;
}
