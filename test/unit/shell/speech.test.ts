// "Hear it first": which system voice reads the text, and what is said when none can.
import { describe, expect, it } from 'vitest';
import { chooseVoice, speechAvailability, type VoiceLike } from '../../../renderer/src/app/speech';
import { EN } from '../../../renderer/src/i18n/dictionary-en';
import { ZH_CN } from '../../../renderer/src/i18n/dictionary-zh-CN';

const v = (name: string, lang: string, extra: Partial<VoiceLike> = {}): VoiceLike => ({ name, lang, localService: false, default: false, ...extra });

describe('chooseVoice', () => {
  it('prefers a zh-CN voice of the machine over a network one and over other Mandarin', () => {
    const voices = [
      v('English', 'en-US', { default: true }),
      v('Taiwan', 'zh-TW', { localService: true }),
      v('Google 普通话', 'zh-CN'),
      v('Tingting', 'zh-CN', { localService: true }),
    ];
    expect(chooseVoice(voices)?.name).toBe('Tingting');
  });

  it('reads zh_CN and zh-Hans-CN as simplified Mandarin', () => {
    expect(chooseVoice([v('TW', 'zh-TW'), v('Huihui', 'zh_CN')])?.name).toBe('Huihui');
    expect(chooseVoice([v('TW', 'zh-TW'), v('Hans', 'zh-Hans-CN')])?.name).toBe('Hans');
  });

  it('falls back to other Mandarin, never to Cantonese or another language', () => {
    expect(chooseVoice([v('Sinji', 'zh-HK', { localService: true }), v('Meijia', 'zh-TW')])?.name).toBe('Meijia');
    expect(chooseVoice([v('Sinji', 'zh-HK'), v('yue', 'yue-HK'), v('Alex', 'en-US', { default: true })])).toBeNull();
  });
});

describe('speechAvailability', () => {
  it('says there is no speech synthesis when the window has none', () => {
    expect(speechAvailability(null)).toEqual({ ok: false, reason: 'no-synthesis' });
  });

  it('says no Chinese voice is installed when only other languages are', () => {
    expect(speechAvailability([])).toEqual({ ok: false, reason: 'no-chinese-voice' });
    expect(speechAvailability([v('Alex', 'en-US')])).toEqual({ ok: false, reason: 'no-chinese-voice' });
  });

  it('gives the chosen voice when one can read', () => {
    const voice = v('Tingting', 'zh-CN');
    expect(speechAvailability([v('Alex', 'en-US'), voice])).toEqual({ ok: true, voice });
  });

  it('has a plain message for each reason in both languages', () => {
    for (const reason of ['no-synthesis', 'no-chinese-voice'] as const) {
      expect(EN.speech[reason]).toMatch(/\w/);
      expect(ZH_CN.speech[reason]).toMatch(/[\u3400-\u9fff]/);
    }
    expect(EN.speech['no-chinese-voice']).toMatch(/Chinese voice/);
    expect(ZH_CN.speech['no-chinese-voice']).toContain('中文语音');
  });
});
