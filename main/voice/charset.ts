// Bodies are decoded by the charset they declare — the Content-Type's `charset=`, else an XML
// declaration's `encoding="…"` — before anything parses them: some gateways answer in GBK or
// GB18030, and reading those bytes as UTF-8 gives mojibake. Node's TextDecoder (full ICU) knows
// them all; an unknown or missing label means UTF-8. The text kept in an exchange is the decoded one.

/** The charset a Content-Type names, lower-cased, or null. */
export function declaredCharset(contentType: string | null | undefined): string | null {
  const m = /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

/** `<?xml version="1.0" encoding="gbk"?>` at the start of an (ASCII-compatible) body. */
function xmlEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const m = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  return m ? m[1]!.toLowerCase() : null;
}

function decoderFor(label: string | null): InstanceType<typeof TextDecoder> | null {
  if (!label) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

/** The body as text, decoded by its declared charset (UTF-8 when none is declared or it is unknown). */
export function decodeBody(bytes: Uint8Array, contentType: string | null | undefined): { text: string; charset: string } {
  const decoder = decoderFor(declaredCharset(contentType)) ?? decoderFor(xmlEncoding(bytes)) ?? new TextDecoder('utf-8');
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}
