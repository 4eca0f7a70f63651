/** The one secret-redaction function: every provider error message and recorded request passes through `redact`. */

const MASK = '***';
/** Secret values registered when `providers/registry.ts` reads the API keys (shorter strings are ignored). */
const knownSecrets = new Set<string>();
const MIN_SECRET_LENGTH = 8;

/** Adds a secret value (an API key) that `redact` must mask wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) knownSecrets.add(value);
}

// Order matters: a `Bearer` token is masked before the generic header rule sees `Authorization`.
const PATTERNS: Array<{ pattern: RegExp; replace: string }> = [
  { pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, replace: `Bearer ${MASK}` },
  { pattern: /\bsk-[A-Za-z0-9_-]{6,}/g, replace: `sk-${MASK}` },
  { pattern: /\bAIza[0-9A-Za-z_-]{16,}/g, replace: `AIza${MASK}` },
  {
    pattern: /\b(x-api-key|x-goog-api-key|api[_-]?key|authorization|access[_-]?token)(["']?\s*[:=]\s*["']?)(?!Bearer\b|\*\*\*)([^\s"',;}&]+)/gi,
    replace: `$1$2${MASK}`,
  },
  { pattern: /([?&](?:key|api_key|apikey|access_token|token)=)[^&\s"'#]+/gi, replace: `$1${MASK}` },
];

/** Returns `text` with registered secrets, `extra` secrets and common key patterns (sk-…, Bearer …, x-api-key, key=) masked. */
export function redact(text: string, extra: Iterable<string> = []): string {
  let result = text;
  const secrets = [...knownSecrets, ...[...extra].filter((secret) => secret.length >= MIN_SECRET_LENGTH)];
  // Longest first, so a key that contains another registered key is masked whole.
  for (const secret of secrets.sort((a, b) => b.length - a.length)) result = result.split(secret).join(MASK);
  for (const { pattern, replace } of PATTERNS) result = result.replace(pattern, replace);
  return result;
}
