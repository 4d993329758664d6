// What counts as an API Key we are willing to store.
import { SecretStoreError } from './secret-store';

/** Longest accepted API Key, in characters (code points), after trimming. */
export const API_KEY_MAX_LENGTH = 256;

/**
 * Shortest accepted API Key. Keys are redacted from every captured exchange by replacing each
 * occurrence: a 1-character key would turn every such letter of a reply into "[REDACTED]" (and
 * would be guessable anyway). Real providers issue keys of 16 characters and more; the sandbox's
 * are 28. One rule for the keychain store, the session store and CALLOUT_API_KEY.
 */
export const API_KEY_MIN_LENGTH = 8;

export type ApiKeyError = 'empty' | 'too-short' | 'too-long' | 'control-characters';

export type ApiKeyValidation = { ok: true; value: string } | { ok: false; error: ApiKeyError };

// C0 controls, DEL and C1 controls; and, with the u flag, lone surrogate halves (a paired
// surrogate is read as one code point), which no keychain can store as UTF-8.
const FORBIDDEN = /[\p{Cc}\p{Cs}]/u;

/**
 * Trims surrounding whitespace (a pasted key often brings a line break along), then refuses an
 * empty key, one shorter than 8 or longer than 256 characters, and one containing control characters (tabs,
 * line breaks or other invisible controls inside the key) or broken UTF-16.
 */
export function validateApiKey(secret: string): ApiKeyValidation {
  if (typeof secret !== 'string') return { ok: false, error: 'empty' };
  const value = secret.trim();
  if (value.length === 0) return { ok: false, error: 'empty' };
  if (FORBIDDEN.test(value)) return { ok: false, error: 'control-characters' };
  let length = 0;
  for (const _ of value) {
    if (++length > API_KEY_MAX_LENGTH) return { ok: false, error: 'too-long' };
  }
  if (length < API_KEY_MIN_LENGTH) return { ok: false, error: 'too-short' };
  return { ok: true, value };
}

/**
 * Why Callout would not store this key (too short, control characters...), or null for a key it
 * would. A signature debugger computes with any non-empty key (RFC 4231's "Jefe") and says this.
 */
export function unstorableKey(secret: string): ApiKeyError | null {
  const checked = validateApiKey(secret);
  return checked.ok ? null : checked.error;
}

/** A plain English sentence for a validation error. Never contains the key. */
export function describeApiKeyError(error: ApiKeyError): string {
  switch (error) {
    case 'empty':
      return 'The API Key is empty.';
    case 'too-short':
      return `The API Key is shorter than ${API_KEY_MIN_LENGTH} characters.`;
    case 'too-long':
      return `The API Key is longer than ${API_KEY_MAX_LENGTH} characters.`;
    case 'control-characters':
      return 'The API Key contains control characters (such as a tab or a line break inside it) or broken characters.';
  }
}

/**
 * The key, checked and trimmed, or the coded error `invalid-key` (its text never contains the key).
 * Every way a key comes in goes through here: the keychain store, the session store, CALLOUT_API_KEY.
 */
export function requireValidApiKey(secret: string): string {
  const checked = validateApiKey(secret);
  if (checked.ok) return checked.value;
  throw new SecretStoreError('invalid-key', { kind: checked.error, min: API_KEY_MIN_LENGTH, max: API_KEY_MAX_LENGTH }, describeApiKeyError(checked.error), {
    redact: [secret],
  });
}
