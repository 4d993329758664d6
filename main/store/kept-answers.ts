// The provider's answers to sends whose result the database could not store (a full disk), kept
// in small files outside the database so that they survive the process: one JSON file per answer,
// written to a temporary name, fsync'd and renamed (never half a file), in the data directory or,
// when that cannot be written either, in a private folder of the OS temp directory (the answer
// only there, without the exchanges: less of a person's data outside the data directory). The next
// start (and any send) writes them into the store and removes them. Never holds the API key (the
// transport's Redactor, once more, on the whole file).
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FailureView } from '../../common/contract/send';
import type { Exchange } from '../../common/records';
import type { SendReply } from '../voice/replies';
import { Redactor } from '../voice/redaction';
import { processOwner } from './process-owner';
import { systemClock } from '../clock';

export const KEPT_ANSWERS_FOLDER = 'kept-answers';

/** One send's answer, as kept. */
export interface KeptAnswer {
  v: 1;
  /** The process that placed the call (host:pid). */
  owner: string;
  messageId: number;
  profile: string;
  reply: SendReply | null;
  failure: FailureView | null;
  /** The exchanges still to store (already redacted by the transport); empty in the temp folder. */
  exchanges: Exchange[];
  keptAt: number;
}

export interface KeptFile {
  path: string;
  answer: KeptAnswer;
}

export interface KeptAnswersOptions {
  /** The data directory. */
  home: string;
  /** The fallback's parent folder (default: the OS temp directory). */
  tmp?: string;
  now?: () => number;
}

export class KeptAnswers {
  /** Where answers are kept, in order of preference. */
  readonly folders: readonly string[];
  private readonly now: () => number;

  constructor(o: KeptAnswersOptions) {
    const home = resolve(o.home);
    const tag = createHash('sha256').update(home).digest('hex').slice(0, 16);
    this.folders = [join(home, KEPT_ANSWERS_FOLDER), join(o.tmp ?? tmpdir(), `callout-kept-answers-${tag}`)];
    this.now = o.now ?? (() => systemClock.now());
  }

  /**
   * Keeps an answer (synchronously, on disk, before the caller goes on). `secrets`: the profile's
   * key, which never reaches the file whatever echoed it. Returns the file, or null when no folder
   * could be written.
   */
  keep(a: Omit<KeptAnswer, 'v' | 'owner' | 'keptAt'>, secrets: readonly string[]): string | null {
    const answer: KeptAnswer = { v: 1, owner: processOwner(), keptAt: this.now(), ...a };
    const redactor = new Redactor(secrets);
    for (const [i, folder] of this.folders.entries()) {
      const text = redactor.text(JSON.stringify(i === 0 ? answer : { ...answer, exchanges: [] }));
      try {
        ensurePrivateFolder(folder, i > 0);
        const name = fileName(answer);
        writeDurably(join(folder, name), text);
        return join(folder, name);
      } catch {
        // This folder cannot be written (full, read-only, not ours): the next one.
      }
    }
    return null;
  }

  /** Every kept answer, oldest first (a file that cannot be read is left where it is). */
  list(): KeptFile[] {
    const found: KeptFile[] = [];
    for (const folder of this.folders) {
      let names: string[];
      try {
        names = readdirSync(folder).filter((n) => n.endsWith('.json'));
      } catch {
        continue;
      }
      for (const name of names) {
        try {
          const answer = JSON.parse(readFileSync(join(folder, name), 'utf8')) as KeptAnswer;
          if (answer && answer.v === 1 && Number.isInteger(answer.messageId)) found.push({ path: join(folder, name), answer });
        } catch {
          // Unreadable now: tried again next time.
        }
      }
    }
    return found.sort((a, b) => a.answer.keptAt - b.answer.keptAt);
  }

  /** Removes this process's kept answer of a message (its result is stored now). */
  forget(messageId: number): void {
    const name = fileName({ owner: processOwner(), messageId });
    for (const folder of this.folders) rmSync(join(folder, name), { force: true });
  }

  remove(path: string): void {
    rmSync(path, { force: true });
    // The temp folder goes once empty (the data directory's stays).
    try {
      rmdirSync(this.folders[1]!);
    } catch {
      // Not empty, or not there.
    }
  }
}

function fileName(a: Pick<KeptAnswer, 'owner' | 'messageId'>): string {
  return `${a.messageId}-${a.owner.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

/** The folder exists; the temp one is ours alone (created 0700, refused when another user owns it or it is a link). */
function ensurePrivateFolder(folder: string, shared: boolean): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (!shared) return;
  const st = lstatSync(folder);
  if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid()) || (st.mode & 0o077) !== 0) {
    throw new Error(`${folder} is not a private folder`);
  }
}

/** Written to a temporary name, fsync'd, renamed into place, and the folder fsync'd. */
function writeDurably(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    const dir = openSync(join(path, '..'), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some systems cannot fsync a folder (Windows): the rename stands.
  }
}
