// "Hear it first": the exact text read aloud by the system's speech voice (the Web Speech API, in
// Electron and browsers), in Chinese. The pure part (which voice, whether one can speak) is apart
// from the part that touches the browser, so that it is tested in Node.

/** What a voice is, as far as choosing one goes (a SpeechSynthesisVoice has these). */
export interface VoiceLike {
  name: string;
  lang: string;
  localService?: boolean;
  default?: boolean;
}

/** Whether the text can be played: a message code under speech.* when it cannot. */
export type SpeechAvailability<V extends VoiceLike = VoiceLike> = { ok: true; voice: V } | { ok: false; reason: 'no-synthesis' | 'no-chinese-voice' };

export const SPEECH_LANG = 'zh-CN';

/** A language tag's parts, lower case, with `_` read as `-` (some systems say zh_CN). */
const tagOf = (lang: string) => lang.replace(/_/g, '-').toLowerCase().split('-');

/**
 * The voice to read a Chinese (Mandarin, simplified) text with: zh-CN first, then other Mandarin
 * (zh, zh-Hans, zh-SG, zh-TW), never Cantonese (zh-HK, yue) since it reads the same characters
 * differently; among equals a voice of the machine before a network one, then the system default.
 */
export function chooseVoice<V extends VoiceLike>(voices: readonly V[]): V | null {
  const rank = (v: V): number => {
    const [lang, ...rest] = tagOf(v.lang);
    if (lang === 'cmn') return 1;
    if (lang !== 'zh') return -1;
    if (rest.includes('hk') || rest.includes('yue') || rest.includes('mo')) return -1;
    if (rest[0] === 'cn' || rest.includes('hans')) return 2;
    return 1;
  };
  let best: V | null = null;
  let bestScore = -1;
  for (const v of voices) {
    const r = rank(v);
    if (r < 0) continue;
    const score = r * 4 + (v.localService ? 2 : 0) + (v.default ? 1 : 0);
    if (score > bestScore) {
      best = v;
      bestScore = score;
    }
  }
  return best;
}

/** Whether speech can play (no synthesis at all, or no Chinese voice installed), with the voice when it can. */
export function speechAvailability<V extends VoiceLike>(voices: readonly V[] | null): SpeechAvailability<V> {
  if (voices === null) return { ok: false, reason: 'no-synthesis' };
  const voice = chooseVoice(voices);
  return voice ? { ok: true, voice } : { ok: false, reason: 'no-chinese-voice' };
}

// ---- The browser's side -------------------------------------------------------------------------

// The Web Speech API's parts used here, typed structurally (this module is also compiled for Node's tests).
interface Utterance {
  lang: string;
  voice: unknown;
  onend: (() => void) | null;
  onerror: (() => void) | null;
}
interface Synthesis<V extends VoiceLike = VoiceLike> {
  getVoices(): V[];
  speak(utterance: Utterance): void;
  cancel(): void;
  addEventListener?(type: 'voiceschanged', listener: () => void): void;
  removeEventListener?(type: 'voiceschanged', listener: () => void): void;
}
interface SynthesisGlobals {
  speechSynthesis?: Synthesis;
  SpeechSynthesisUtterance?: new (text: string) => Utterance;
}
const globals = () => globalThis as unknown as SynthesisGlobals;

function synthesis(): Synthesis | null {
  const g = globals();
  return g.speechSynthesis && typeof g.SpeechSynthesisUtterance === 'function' ? g.speechSynthesis : null;
}

/**
 * The installed voices, or null without speech synthesis. Chromium lists them only after its first
 * `voiceschanged`: an empty list is asked again once that event comes (or after a second, when it never does).
 */
export async function loadVoices(): Promise<VoiceLike[] | null> {
  const synth = synthesis();
  if (!synth) return null;
  const now = synth.getVoices();
  if (now.length > 0) return now;
  return new Promise((resolve) => {
    const done = () => {
      synth.removeEventListener?.('voiceschanged', done);
      resolve(synth.getVoices());
    };
    synth.addEventListener?.('voiceschanged', done);
    globalThis.setTimeout(done, 1_000);
  });
}

/** Reads the text aloud in Chinese with the chosen voice; resolves when it ends (or is stopped). */
export function speak(text: string, voice: VoiceLike): Promise<void> {
  const synth = synthesis();
  const UtteranceClass = globals().SpeechSynthesisUtterance;
  if (!synth || !UtteranceClass) return Promise.resolve();
  synth.cancel();
  const utterance = new UtteranceClass(text);
  utterance.lang = SPEECH_LANG;
  utterance.voice = voice;
  return new Promise((resolve) => {
    utterance.onend = () => resolve();
    utterance.onerror = () => resolve();
    synth.speak(utterance);
  });
}

/** Stops whatever is being read. */
export function stopSpeaking(): void {
  synthesis()?.cancel();
}
