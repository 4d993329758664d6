// The write-ahead log, checked before SQLite reads it. SQLite replays a WAL up to its first frame
// whose checksum (or salt) does not match and silently ignores the rest: committed transactions
// after a damaged frame, or cut off by a truncated file, vanish without a word. This reads the WAL
// (and the wal-index in -shm, when a crash left one) the way SQLite's file format defines them
// (https://www.sqlite.org/fileformat2.html#walformat) and says when committed frames would be lost:
// - a frame of the current generation (same salts) that commits a transaction lies beyond the
//   first frame that fails its checksum;
// - the wal-index says more frames were committed than the WAL still holds valid;
// - the header itself is damaged while frames follow it.
// A frame cut short at the very end (a crash in the middle of writing an uncommitted transaction)
// is not damage: nothing committed is lost.
import { existsSync, readFileSync } from 'node:fs';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;

export interface WalDamage {
  /** What is wrong, for logs and the kept files' notes (English). */
  reason: string;
  /** Frames SQLite will replay (committed before the damage). */
  validFrames: number;
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from s. */
function checksum(data: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let s0 = s[0];
  let s1 = s[1];
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const a = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const b = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + a + s1) >>> 0;
    s1 = (s1 + b + s0) >>> 0;
  }
  return [s0, s1];
}

/** mxFrame and salts of the wal-index header in -shm, when its two copies agree (else null). */
function walIndex(shm: Buffer | null): { mxFrame: number; salt1: number; salt2: number } | null {
  if (!shm || shm.length < 96) return null;
  if (!shm.subarray(0, 48).equals(shm.subarray(48, 96))) return null;
  if (shm[12] !== 1) return null; // isInit
  // Native byte order; the machines Callout runs on are little-endian.
  return { mxFrame: shm.readUInt32LE(16), salt1: shm.readUInt32BE(32), salt2: shm.readUInt32BE(36) };
}

/** Checks `<file>-wal` (and `<file>-shm`). Null when there is none, or nothing committed would be lost. */
export function checkWal(file: string): WalDamage | null {
  const walFile = `${file}-wal`;
  if (!existsSync(walFile)) return null;
  const wal = readFileSync(walFile);
  const shm = existsSync(`${file}-shm`) ? readFileSync(`${file}-shm`) : null;
  return checkWalBytes(wal, shm);
}

export function checkWalBytes(wal: Buffer, shm: Buffer | null): WalDamage | null {
  if (wal.length < WAL_HEADER) return null; // no frame was ever written after it
  const magic = wal.readUInt32BE(0);
  const pageSize = wal.readUInt32BE(8);
  const validHeader =
    (magic === MAGIC_LE || magic === MAGIC_BE) && wal.readUInt32BE(4) === 3007000 && pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0;
  const bigEndian = magic === MAGIC_BE;
  let sum: [number, number] = validHeader ? checksum(wal.subarray(0, 24), bigEndian, [0, 0]) : [0, 0];
  if (!validHeader || sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) {
    if (wal.length > WAL_HEADER && wal.subarray(0, WAL_HEADER).some((b) => b !== 0))
      return { reason: 'the WAL header is damaged: SQLite ignores every frame after it', validFrames: 0 };
    return null;
  }
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const frameSize = FRAME_HEADER + pageSize;
  const frames = Math.floor((wal.length - WAL_HEADER) / frameSize);
  const frameAt = (i: number) => WAL_HEADER + i * frameSize;
  const ours = (i: number) => wal.readUInt32BE(frameAt(i) + 8) === salt1 && wal.readUInt32BE(frameAt(i) + 12) === salt2;
  let valid = 0;
  let committed = 0; // frames up to the last valid commit
  for (; valid < frames; valid++) {
    const at = frameAt(valid);
    if (!ours(valid)) break;
    sum = checksum(wal.subarray(at, at + 8), bigEndian, sum);
    sum = checksum(wal.subarray(at + FRAME_HEADER, at + frameSize), bigEndian, sum);
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    if (wal.readUInt32BE(at + 4) !== 0) committed = valid + 1;
  }
  for (let i = valid; i < frames; i++) {
    if (ours(i) && wal.readUInt32BE(frameAt(i) + 4) !== 0) {
      return {
        reason: `WAL frame ${valid + 1} fails its checksum, and a transaction committed after it (frame ${i + 1}) would be lost`,
        validFrames: committed,
      };
    }
  }
  const index = walIndex(shm);
  if (index && index.salt1 === salt1 && index.salt2 === salt2 && index.mxFrame > committed) {
    return {
      reason: `the WAL holds ${committed} valid committed frames but its index says ${index.mxFrame} were committed (the WAL was cut short or damaged)`,
      validFrames: committed,
    };
  }
  return null;
}
