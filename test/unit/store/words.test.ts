import { describe, expect, it } from 'vitest';
import { COMMON_GRAMS, indexWords, wordsQuery } from '../../../main/store/words';

// The word index holds a call's uncommon trigrams; a search asks it for its words' uncommon
// trigrams. Whatever the words, an exchange whose text holds them (as the search's own check says:
// a substring, ASCII letters in either case) must be among what the index finds.

/** A small seeded generator (the same texts every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = [
  '{"code":2,"msg":"提交成功","smsid":"V007000005"}',
  'Content-Type: application/json; charset=utf-8',
  'account=C1&password=[REDACTED]&smsid=V007000031&format=json',
  '"state":"answered","duration":31',
  'https://api.example.com/voice/status',
  '您的验证码是100017。',
  'Late-Note-77',
  '😀 emoji and 𝒳 astral',
  'ÉCOLE école Straße',
  '\n',
  '%_\\ wildcard',
];

function text(r: () => number): string {
  let out = '';
  for (let i = 0; i < 6; i++) out += PIECES[Math.floor(r() * PIECES.length)]! + (r() < 0.5 ? ' ' : '');
  return out;
}

/** Some ASCII letters of `s` in the other case. */
function flipped(s: string, r: () => number): string {
  return s.replace(/[A-Za-z]/g, (c) => (r() < 0.5 ? c : c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

const tokens = (q: string | null) => (q === null ? [] : q.split(' AND '));

describe('the word index and its queries', () => {
  it('every word a text holds, in either case, asks only for tokens its entry holds', () => {
    const r = random(27);
    let asked = 0;
    for (let t = 0; t < 300; t++) {
      const s = text(r);
      const held = new Set(indexWords(s).split(' '));
      const chars = [...s];
      for (let k = 0; k < 20; k++) {
        const start = Math.floor(r() * Math.max(1, chars.length - 3));
        const word = flipped(chars.slice(start, start + 3 + Math.floor(r() * 18)).join(''), r);
        const q = tokens(wordsQuery([word]));
        asked += q.length;
        for (const tok of q) expect(held.has(tok), `${JSON.stringify(word)} in ${JSON.stringify(s)}`).toBe(true);
      }
    }
    expect(asked).toBeGreaterThan(10_000);
  });

  it('a word made of trigrams every call holds asks nothing; one with a trigram not every call holds asks for that', () => {
    expect(wordsQuery(['account'])).toBeNull();
    expect(wordsQuery(['Content-Type'])).toBeNull();
    expect(wordsQuery(['application/json'])).toBeNull();
    // A reply's words, a state, a year: most calls may hold them, not all; they are asked for.
    for (const word of ['提交成功', 'answered', '"ended"', '2026']) expect(wordsQuery([word]), word).not.toBeNull();
    const q = tokens(wordsQuery(['V007000005']));
    expect(q.length).toBeGreaterThan(3);
    expect(q).toEqual(tokens(wordsQuery(['v007000005'])));
  });

  it('an entry holds each uncommon trigram once, as letters and digits only', () => {
    const reply = '{"account":"C1","password":"[REDACTED]","mobile":"13800000001","content":"hi","format":"json"}';
    const twice = indexWords(reply + reply).split(' ');
    expect(new Set(twice).size).toBe(twice.length);
    for (const w of twice) expect(w).toMatch(/^[0-9a-f]+$/);
    const words = indexWords(reply).split(' ');
    // The provider's fixed words take nothing: what is left is about the call's own values.
    const all = new Set<string>();
    const chars = [...reply.toLowerCase()];
    for (let i = 0; i + 3 <= chars.length; i++) all.add(chars.slice(i, i + 3).join(''));
    expect(words.length).toBe([...all].filter((g) => !COMMON_GRAMS.has(g)).length);
    expect(words.length).toBeLessThan(all.size / 2);
  });
});
