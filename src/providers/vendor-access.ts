/**
 * How a stack reaches a vendor: its API key, read from the environment (the only place keys are
 * read), its base URLs (a flag, the vendor's own variable or its default), checked and normalised,
 * and the key's variable named in an authentication failure.
 */
import { ProviderError, UsageError } from '../errors.js';
import { registerSecret } from '../redact.js';
import { parseModelSpec, PROVIDERS, type ModelSpec } from './model-spec.js';
import type { Provider } from './provider.js';

/**
 * The API key for a spec from `env`, registered for redaction; a required key that is missing is a
 * `UsageError` naming the variable.
 */
export function readApiKey(
  spec: ModelSpec,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const info = PROVIDERS[spec.provider];
  const key = info.keyEnv.map((name) => env[name]?.trim()).find((value) => value);
  if (!key && info.keyRequired) {
    throw new UsageError(
      `${info.keyEnv.join(' or ')} is not set: ${spec.provider}:${spec.model} needs an API key in the environment`,
    );
  }
  registerSecret(key);
  return key;
}

/** The vendor's own base-URL variable that is set for this spec's provider (`OPENAI_BASE_URL`, …), if any. */
export function vendorBaseUrl(
  specOrText: ModelSpec | string,
  env: Readonly<Record<string, string | undefined>>,
): { url: string; variable: string } | null {
  let spec: ModelSpec;
  try {
    spec = typeof specOrText === 'string' ? parseModelSpec(specOrText) : specOrText;
  } catch {
    return null; // a baseline or the rules judge: no endpoint
  }
  const info = PROVIDERS[spec.provider];
  if (!info) return null;
  for (const variable of info.baseUrlEnv) {
    const url = env[variable]?.trim();
    if (url) return { url, variable };
  }
  return null;
}

/** The endpoints of a stack: each given URL checked and normalised (duplicates dropped), or the vendor's default. */
export function resolveBaseUrls(
  spec: ModelSpec,
  given: string | readonly string[] | null | undefined,
): string[] {
  const list = (typeof given === 'string' ? [given] : (given ?? [])).filter(
    (url) => url.trim() !== '',
  );
  if (list.length === 0) return [resolveBaseUrl(spec, null)];
  return [...new Set(list.map((url) => resolveBaseUrl(spec, url)))];
}

function resolveBaseUrl(spec: ModelSpec, given: string | null | undefined): string {
  const baseUrl = given?.trim() || PROVIDERS[spec.provider].defaultBaseUrl;
  if (!baseUrl)
    throw new UsageError(
      `${spec.provider}:${spec.model} needs a base URL (--base-url URL, e.g. http://localhost:8000/v1)`,
    );
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`base URL "${baseUrl}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`base URL "${baseUrl}" must start with http:// or https://`);
  if (url.username || url.password || url.search)
    throw new UsageError(
      'base URL must not carry credentials or a query string: put the key in the environment',
    );
  return baseUrl.replace(/\/+$/, '');
}

/** Names the key's environment variable in authentication failures, so the message says what to fix. */
export function withKeyHint(provider: Provider, keyEnv: readonly string[]): Provider {
  return {
    id: provider.id,
    async generate(request, signal) {
      try {
        return await provider.generate(request, signal);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.kind !== 'auth') throw error;
        const message = `${error.message} (the key is read from ${keyEnv.join(' or ')})`;
        throw new ProviderError({
          provider: error.provider,
          kind: 'auth',
          retryable: false,
          status: error.status,
          message,
          cause: error,
        });
      }
    },
  };
}
