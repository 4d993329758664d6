// A file named on the command line, or standard input for `-` (as cat, curl and jq read it): the
// bulk list, a collection to run, an alert to paste. One place says how either is read and refused.
import { readFile, stat } from 'node:fs/promises';
import { CliFailure, usage, type CliIo } from './io';

/** The file name that means standard input. */
export const STDIN = '-';

export interface InputLimit {
  maxBytes: number;
  /** The refusal of a larger input: `found` its size, or null from standard input (reading stopped past the limit). */
  tooLarge: (found: number | null) => CliFailure;
}

/**
 * The bytes of the file `name`, or of standard input for `-`. A file over the limit is refused from
 * its size, never read into memory; standard input is read until the limit and refused past it (a
 * pipe has no size to ask, and may never end). Unreadable: a usage error naming it and why.
 */
export async function readInput(io: CliIo, name: string, limit?: InputLimit): Promise<Buffer> {
  try {
    if (name === STDIN) return await readAll(io.stdin ?? process.stdin, limit);
    if (limit) {
      const size = (await stat(name)).size;
      if (size > limit.maxBytes) throw limit.tooLarge(size);
    }
    return await readFile(name);
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    const detail = (error as NodeJS.ErrnoException).code ?? String(error);
    throw name === STDIN ? usage('cannotReadStdin', { detail }) : usage('cannotRead', { name, detail });
  }
}

async function readAll(input: AsyncIterable<Buffer | string>, limit: InputLimit | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of input) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += b.length;
    if (limit && bytes > limit.maxBytes) throw limit.tooLarge(null);
    chunks.push(b);
  }
  return Buffer.concat(chunks, bytes);
}
