// Variables in saved requests: `{{name}}` anywhere in a path, a header value or a body is replaced
// by its value when the request is sent. The same reading is used by main (which fills them, and
// alone knows `{{password}}`) and by the renderer (which lists the names a request uses).

/** `{{name}}`, spaces inside the braces allowed: `{{ mobile }}`. */
const PATTERN = /\{\{\s*([A-Za-z_][\w.-]{0,63})\s*\}\}/g;

/** The variable names used in a text, in order of first use. */
export function variablesIn(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PATTERN)) if (!names.includes(m[1]!)) names.push(m[1]!);
  return names;
}

/**
 * The text with each `{{name}}` replaced by `lookup(name)` (passed through `encode`), and the names
 * that had no value (left as written).
 */
export function fillVariables(
  text: string,
  lookup: (name: string) => string | undefined,
  encode: (value: string) => string = (v) => v,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(PATTERN, (whole, name: string) => {
    const value = lookup(name);
    if (value === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return whole;
    }
    return encode(value);
  });
  return { text: out, missing };
}
