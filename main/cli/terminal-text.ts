// What the CLI prints can carry text it did not write: the provider's `msg` and `smsid`, its raw
// replies, cells of a spreadsheet, a template's text. On a terminal, control characters in such text
// are commands (set the window title, erase lines, move the cursor, print a fake "All good"), and
// bidirectional overrides reorder what is shown. So every byte the CLI writes goes through here:
// one function, applied to every interpolated value (newlines included) and, as a safety net, to
// all human output (newlines and tabs kept) and to JSON output.

import type { Clock } from '../clock';

/* eslint-disable no-control-regex -- matching control characters is this module's job */
/** C0 controls except tab and line feed, DEL, C1 controls, and the invisible direction marks and overrides. */
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, and tab and line feed too (for a value inside a line). */
const UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/* eslint-enable no-control-regex */

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Shows control characters as visible escapes (`\e`, `\x07`, `\r`, `\u202e`): printed, the text is
 * exactly what was received, and the terminal does nothing it says. `keepLines` keeps line feeds
 * and tabs (the CLI's own layout); otherwise they are escaped too (a value is one line).
 */
export function escapeControls(text: string, options: { keepLines?: boolean } = {}): string {
  return text.replace(options.keepLines ? UNSAFE_KEEP_LINES : UNSAFE_ALL, visible);
}

/**
 * JSON for a terminal or a pipe: JSON.stringify already escapes C0 controls; this escapes the rest
 * (DEL, C1, direction overrides, line/paragraph separators) as \u sequences. Same JSON value.
 */
export function safeJson(text: string): string {
  return text.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The one control sequence the CLI writes itself: back to the start of the line and clear it (the progress line). */
export const CLEAR_LINE = '\r\u001b[2K';

/** Human output: the CLI's own line breaks and its progress-line prefix kept, everything else made visible. */
export function safeHuman(text: string): string {
  if (text.startsWith(CLEAR_LINE)) return CLEAR_LINE + escapeControls(text.slice(CLEAR_LINE.length), { keepLines: true });
  return escapeControls(text, { keepLines: true });
}

/**
 * A line on standard error rewritten in place as work goes on, on a terminal only (on a pipe or in a
 * file nothing is written), at most every `everyMs` unless forced. `end` leaves it (a newline after
 * it) or clears it.
 */
export function liveLine(o: { write: (s: string) => void; live: boolean; clock: Clock; everyMs?: number }): {
  show(text: string, force?: boolean): void;
  end(how: 'keep' | 'clear'): void;
} {
  let shown = false;
  let last = -Infinity;
  return {
    show(text, force = false) {
      if (!o.live) return;
      const now = o.clock.now();
      if (!force && now - last < (o.everyMs ?? 100)) return;
      last = now;
      o.write(`${CLEAR_LINE}${text}`);
      shown = true;
    },
    end(how) {
      if (shown) o.write(how === 'keep' ? '\n' : CLEAR_LINE);
      shown = false;
    },
  };
}
