/** The one secret-redaction function: every provider error message and recorded request passes through `redact`. */

const MASK = '***';
/** Secrets registered as `providers/vendor-access.ts` reads the API keys (short ones ignored). */
const knownSecrets = new Set<string>();
/** Every registered secret with its encoded forms, longest first (rebuilt when a secret is registered). */
let knownForms: string[] = [];
const MIN_SECRET_LENGTH = 8;
/** Encoded fragments shorter than this are not masked: they could match ordinary text. */
const MIN_FORM_LENGTH = 12;

/**
 * The forms a secret takes when a server echoes it encoded: URL-encoded, and base64 (standard and
 * URL-safe) at each of the three byte alignments it can have inside a longer encoded string (a
 * 401 body echoing `base64("user:" + key)`). For an alignment, only the characters that depend on
 * the secret's bytes alone are kept, so the fragment appears whatever surrounds the secret.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) {
    forms.add(encoded);
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
  }
  const bytes = Buffer.from(secret, 'utf8');
  for (let shift = 0; shift < 3; shift += 1) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Drop the first group when it mixes in bytes before the secret, and the last when it mixes in bytes after.
    const start = shift === 0 ? 0 : 4;
    const end =
      (shift + bytes.length) % 3 === 0
        ? text.length
        : text.length - ((shift + bytes.length) % 3) - 1;
    const core = text.slice(start, end);
    if (core.length >= MIN_FORM_LENGTH) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

/** Adds a secret value (an API key) that `redact` must mask wherever it appears, encoded forms included. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH || knownSecrets.has(value)) return;
  knownSecrets.add(value);
  knownForms = [...new Set([...knownSecrets].flatMap(secretForms))].sort(
    (a, b) => b.length - a.length,
  );
}

// Order matters: a `Bearer` token is masked before the generic header rule sees `Authorization`.
const PATTERNS: Array<{ pattern: RegExp; replace: string }> = [
  { pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, replace: `Bearer ${MASK}` },
  { pattern: /\bBasic\s+[A-Za-z0-9+/=]{8,}/gi, replace: `Basic ${MASK}` },
  { pattern: /\bsk-[A-Za-z0-9_-]{6,}/g, replace: `sk-${MASK}` },
  { pattern: /\bAIza[0-9A-Za-z_-]{16,}/g, replace: `AIza${MASK}` },
  { pattern: /\bhf_[A-Za-z0-9]{10,}/g, replace: `hf_${MASK}` },
  {
    pattern:
      /\b(x-api-key|x-goog-api-key|api[_-]?key|authorization|access[_-]?token)(["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|\*\*\*)([^\s"',;}&]+)/gi,
    replace: `$1$2${MASK}`,
  },
  { pattern: /([?&](?:key|api_key|apikey|access_token|token)=)[^&\s"'#]+/gi, replace: `$1${MASK}` },
];

/** Returns `text` with registered secrets (and their URL and base64 forms), `extra` secrets and common key patterns masked. */
export function redact(text: string, extra: Iterable<string> = []): string {
  let result = text;
  const extraForms = [...extra]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH && !knownSecrets.has(secret))
    .flatMap(secretForms);
  // Longest first, so a key that contains another registered key is masked whole.
  const forms =
    extraForms.length > 0
      ? [...knownForms, ...extraForms].sort((a, b) => b.length - a.length)
      : knownForms;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(MASK);
  for (const { pattern, replace } of PATTERNS) result = result.replace(pattern, replace);
  return result;
}
