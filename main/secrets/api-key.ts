// What counts as an API Key we are willing to store.

/** Longest accepted API Key, in characters (code points), after trimming. */
export const API_KEY_MAX_LENGTH = 256;

export type ApiKeyError = 'empty' | 'too-long' | 'control-characters';

export type ApiKeyValidation = { ok: true; value: string } | { ok: false; error: ApiKeyError };

// C0 controls, DEL and C1 controls; and, with the u flag, lone surrogate halves (a paired
// surrogate is read as one code point), which no keychain can store as UTF-8.
const FORBIDDEN = /[\p{Cc}\p{Cs}]/u;

/**
 * Trims surrounding whitespace (a pasted key often brings a line break along), then refuses an
 * empty key, one longer than 256 characters, and one containing control characters (tabs,
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
  return { ok: true, value };
}

/** A plain English sentence for a validation error. Never contains the key. */
export function describeApiKeyError(error: ApiKeyError): string {
  switch (error) {
    case 'empty':
      return 'The API Key is empty.';
    case 'too-long':
      return `The API Key is longer than ${API_KEY_MAX_LENGTH} characters.`;
    case 'control-characters':
      return 'The API Key contains control characters (such as a tab or a line break inside it) or broken characters.';
  }
}
