import { describe, expect, it } from 'vitest';
import {
  MARKER,
  missingValues,
  countMarkers,
  fillTemplate,
  findMatchingTemplates,
  matchTemplate,
  parseTemplate,
  textMatchesTemplate,
  validateTemplate,
} from '../../../common/domain/templates';
import { unitsFor } from '../../../common/domain/units';

const M = MARKER;

describe('MARKER', () => {
  it('is the literal token 【变量】', () => {
    expect(MARKER).toBe('【变量】');
  });
});

describe('parseTemplate', () => {
  it.each([
    ['您好', ['您好'], 0],
    [`您好${M}`, ['您好', ''], 1],
    [`${M}您好`, ['', '您好'], 1],
    [`尊敬的${M}，您的验证码是${M}。`, ['尊敬的', '，您的验证码是', '。'], 2],
    [`${M}${M}`, ['', '', ''], 2],
    [M, ['', ''], 1],
    ['', [''], 0],
    ['【变量', ['【变量'], 0], // not a complete marker
    ['【变 量】', ['【变 量】'], 0],
  ])('%j', (content, literals, markerCount) => {
    const parsed = parseTemplate(content);
    expect(parsed).toEqual({ content, literals, markerCount });
    expect(parsed.literals).toHaveLength(parsed.markerCount + 1);
    expect(countMarkers(content)).toBe(markerCount);
  });
});

describe('fillTemplate', () => {
  it('replaces each marker in order', () => {
    expect(fillTemplate(`尊敬的${M}，机房${M}告警。`, ['张三', 'A3'])).toBe('尊敬的张三，机房A3告警。');
  });

  it('returns a template without markers unchanged', () => {
    expect(fillTemplate('系统维护通知', [])).toBe('系统维护通知');
  });

  it('fills adjacent markers', () => {
    expect(fillTemplate(`${M}${M}`, ['甲', '乙'])).toBe('甲乙');
  });

  it.each(['$&', '$1', '$$', "$'", '$`', '$<name>'])('inserts %j verbatim', (v) => {
    expect(fillTemplate(`值：${M}；值：${M}`, [v, v])).toBe(`值：${v}；值：${v}`);
  });

  it('inserts a value containing the marker verbatim, without filling it again', () => {
    expect(fillTemplate(`A${M}B${M}C`, [M, 'x'])).toBe(`A${M}BxC`);
  });

  it('keeps line breaks and surrounding spaces of values', () => {
    expect(fillTemplate(`[${M}]`, [' 第一行\n第二行 '])).toBe('[ 第一行\n第二行 ]');
  });

  it('ignores extra values', () => {
    expect(fillTemplate(`a${M}b`, ['1', '2', '3'])).toBe('a1b');
  });

  it.each<[string, string[], number[]]>([
    [`${M}`, [], [0]],
    [`${M}${M}${M}`, ['a'], [1, 2]],
    [`${M}${M}${M}`, ['', 'b', '  '], [0, 2]],
    [`${M}${M}`, ['\u3000', '\n\t'], [0, 1]],
  ])('missingValues of %j with %j is %j', (content, values, missing) => {
    expect(missingValues(content, values)).toEqual(missing);
  });

  it('computes units of the filled text, not of the template', () => {
    const template = `${M}`;
    const filled = fillTemplate(template, ['字'.repeat(71)]);
    expect(unitsFor(template)).toBe(1);
    expect(unitsFor(filled)).toBe(2);
  });
});

describe('validateTemplate', () => {
  it('accepts 1..500 characters and counts markers as 4 characters each', () => {
    expect(validateTemplate(`您好${M}`)).toEqual({ ok: true, length: 6, units: 1, markerCount: 1 });
    expect(validateTemplate(M.repeat(125))).toEqual({ ok: true, length: 500, units: 8, markerCount: 125 });
  });

  it('rejects more than 500 characters', () => {
    expect(validateTemplate(M.repeat(125) + 'x')).toEqual({ ok: false, error: 'too-long', length: 501, max: 500 });
  });

  it.each(['', '  ', '\r\n'])('rejects %j as empty', (s) => {
    expect(validateTemplate(s)).toMatchObject({ ok: false, error: 'empty' });
  });

  it('counts emoji as one character', () => {
    expect(validateTemplate('😀'.repeat(500)).ok).toBe(true);
    expect(validateTemplate('😀'.repeat(501)).ok).toBe(false);
  });
});

describe('matchTemplate', () => {
  it('captures one value per marker', () => {
    expect(matchTemplate('尊敬的张三，机房A3告警。', `尊敬的${M}，机房${M}告警。`)).toEqual(['张三', 'A3']);
  });

  it('returns [] for a template without markers that equals the text', () => {
    expect(matchTemplate('系统维护通知', '系统维护通知')).toEqual([]);
  });

  it.each(['系统维护通知。', ' 系统维护通知', '系统维护', ''])('a template without markers does not match %j', (text) => {
    expect(matchTemplate(text, '系统维护通知')).toBeNull();
  });

  it('requires at least one character per marker', () => {
    expect(matchTemplate('您好，。', `您好，${M}。`)).toBeNull();
    expect(matchTemplate('', M)).toBeNull();
    expect(matchTemplate('x', M)).toEqual(['x']);
  });

  it('does not let the prefix and suffix overlap', () => {
    expect(matchTemplate('aba', `ab${M}ba`)).toBeNull();
    expect(matchTemplate('abXba', `ab${M}ba`)).toEqual(['X']);
  });

  it('rejects a text with different literal parts', () => {
    expect(matchTemplate('尊敬的张三，机房A3故障。', `尊敬的${M}，机房${M}告警。`)).toBeNull();
    expect(matchTemplate('您好张三', `尊敬的${M}`)).toBeNull();
  });

  it('lets a marker match anything, line breaks included', () => {
    expect(matchTemplate('告警：第一行\n第二行。', `告警：${M}。`)).toEqual(['第一行\n第二行']);
    expect(matchTemplate('告警：。。。', `告警：${M}。`)).toEqual(['。。']);
  });

  it('matches values that contain the marker itself or $&', () => {
    expect(matchTemplate(`A${M}B`, `A${M}B`)).toEqual([M]);
    expect(matchTemplate('A$&B', `A${M}B`)).toEqual(['$&']);
  });

  it('keeps emoji whole in values', () => {
    expect(matchTemplate('😀😀', `${M}${M}`)).toEqual(['😀', '😀']);
    expect(matchTemplate('😀a', `${M}${M}`)).toEqual(['😀', 'a']);
    expect(matchTemplate('😀', `${M}${M}`)).toBeNull();
  });

  describe('treats regex metacharacters in templates literally', () => {
    const metas = ['.', '*', '(', ')', '$', '[', ']', '?', '+', '\\', '|', '^', '{', '}', '/', '.*', '(?:', '\\d', '$1'];
    it.each(metas)('%j', (meta) => {
      const template = `前${meta}${M}${meta}后`;
      expect(matchTemplate(`前${meta}值${meta}后`, template)).toEqual(['值']);
      // if the meta were a regex, these could match
      expect(matchTemplate('前X值X后', template)).toBeNull();
      expect(matchTemplate('前值后', template)).toBeNull();
    });

    it('a template of metacharacters without markers matches only itself', () => {
      expect(matchTemplate('a.b', 'a.b')).toEqual([]);
      expect(matchTemplate('axb', 'a.b')).toBeNull();
      expect(matchTemplate('aaa', 'a*')).toBeNull();
      expect(matchTemplate('x', '^x$')).toBeNull();
      expect(matchTemplate('^x$', '^x$')).toEqual([]);
    });

    it('handles the original ASCII parentheses used for a price', () => {
      expect(matchTemplate('费用(元)：$12.50，请于今日缴纳', `费用(元)：$${M}，请于${M}缴纳`)).toEqual(['12.50', '今日']);
    });
  });

  describe('adjacent markers', () => {
    it('gives the leading markers the shortest values and the last one the rest', () => {
      expect(matchTemplate('张三丰', `${M}${M}`)).toEqual(['张', '三丰']);
      expect(matchTemplate('abcd', `${M}${M}${M}`)).toEqual(['a', 'b', 'cd']);
      expect(matchTemplate('您好张三丰！', `您好${M}${M}！`)).toEqual(['张', '三丰']);
    });

    it('needs at least as many characters as markers', () => {
      expect(matchTemplate('ab', `${M}${M}${M}`)).toBeNull();
      expect(matchTemplate('abc', `${M}${M}${M}`)).toEqual(['a', 'b', 'c']);
    });

    it('round-trips a fill whenever the split is unambiguous', () => {
      const t = `${M}先生${M}${M}号`;
      const text = fillTemplate(t, ['王', '5', '1']);
      expect(matchTemplate(text, t)).toEqual(['王', '5', '1']);
    });
  });

  describe('leftmost split', () => {
    it('ends a marker at the earliest occurrence of the next literal', () => {
      expect(matchTemplate('a-b-c', `${M}-${M}`)).toEqual(['a', 'b-c']);
    });

    it('still finds a later occurrence when the earliest leaves no room', () => {
      // the first '-' directly follows the start, so the first marker would be empty
      expect(matchTemplate('x--y', `x${M}-${M}`)).toEqual(['-', 'y']);
      expect(matchTemplate('ab', `${M}b${M}`)).toBeNull();
    });

    it('any returned split re-fills to the same text', () => {
      const cases: Array<[string, string]> = [
        ['a-b-c-d', `${M}-${M}-${M}`],
        ['xxxyxxxy', `${M}y${M}y`],
        ['aaaaaaa', `a${M}a${M}a`],
      ];
      for (const [text, template] of cases) {
        const values = matchTemplate(text, template);
        expect(values).not.toBeNull();
        expect(fillTemplate(template, values!)).toBe(text);
      }
    });
  });

  describe('line endings', () => {
    const template = `第一行${M}\r\n第二行${M}`;

    it.each([
      ['第一行A\r\n第二行B', ['A', 'B']],
      ['第一行A\n第二行B', ['A', 'B']],
    ])('a CRLF template matches %j', (text, values) => {
      expect(matchTemplate(text, template)).toEqual(values);
    });

    it('an LF template matches a CRLF text', () => {
      expect(matchTemplate('第一行A\r\n第二行B', `第一行${M}\n第二行${M}`)).toEqual(['A', 'B']);
    });

    it('templates without markers compare line endings loosely too', () => {
      expect(matchTemplate('甲\r\n乙', '甲\n乙')).toEqual([]);
      expect(matchTemplate('甲\n乙', '甲\r\n乙')).toEqual([]);
    });

    it('returns values with \\n line breaks', () => {
      expect(matchTemplate('开始A\r\nB结束', `开始${M}结束`)).toEqual(['A\nB']);
    });

    it('a bare \\r is not a line break substitute', () => {
      expect(matchTemplate('甲\r乙', '甲\n乙')).toBeNull();
    });
  });

  describe('is not catastrophically slow', () => {
    it('20 adjacent markers and a missing literal against 500 characters', () => {
      const template = `${M.repeat(20)}不存在的结尾`;
      expect(matchTemplate('a'.repeat(500), template)).toBeNull();
      expect(matchTemplate('a'.repeat(500), `${M.repeat(20)}不存在${M}`)).toBeNull();
    });

    it('many markers separated by a literal that occurs everywhere', () => {
      const template = `${Array.from({ length: 60 }, () => M).join('a')}b`;
      expect(matchTemplate('a'.repeat(500), template)).toBeNull();
      const values = matchTemplate(`${'a'.repeat(499)}b`, template);
      expect(values).toHaveLength(60);
      expect(values!.slice(0, 59).every((v) => v === 'a')).toBe(true);
    });

    it('a 500-character text against 100 interleaved markers', () => {
      const template = `${M}x`.repeat(100);
      const text = 'yx'.repeat(250);
      const values = matchTemplate(text, template);
      expect(values).toHaveLength(100);
      expect(fillTemplate(template, values!)).toBe(text);
      expect(matchTemplate(`${'yx'.repeat(249)}yz`, template)).toBeNull();
    });
  });
});

describe('textMatchesTemplate', () => {
  it('is true exactly when matchTemplate finds values', () => {
    expect(textMatchesTemplate('你好张三', `你好${M}`)).toBe(true);
    expect(textMatchesTemplate('你好', `你好${M}`)).toBe(false);
  });
});

describe('findMatchingTemplates', () => {
  const templates = [
    { id: 't1', content: `机房${M}告警` },
    { id: 't2', content: '机房A3告警' },
    { id: 't3', content: `${M}告警` },
    { id: 't4', content: `停电${M}` },
    { id: 't5', content: `机房${M}${M}` },
  ];

  it('returns every matching template, in input order, with its values', () => {
    expect(findMatchingTemplates('机房A3告警', templates)).toEqual([
      { template: templates[0], values: ['A3'] },
      { template: templates[1], values: [] },
      { template: templates[2], values: ['机房A3'] },
      { template: templates[4], values: ['A', '3告警'] },
    ]);
  });

  it('returns the same template objects that were passed in', () => {
    const [first] = findMatchingTemplates('停电通知', templates);
    expect(first?.template).toBe(templates[3]);
  });

  it('returns [] when nothing matches, or for no templates', () => {
    expect(findMatchingTemplates('你好', templates)).toEqual([]);
    expect(findMatchingTemplates('你好', [])).toEqual([]);
  });
});

describe('matchTemplate agrees with a reference regex on many small cases', () => {
  // Reference: anchored regex with escaped literals and lazy groups; for small inputs its
  // backtracking is cheap and its leftmost-shortest choice is the one matchTemplate documents.
  function reference(text: string, template: string): string[] | null {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`^${template.split(M).map(escape).join('([\\s\\S]+?)')}$`, 'u');
    const m = re.exec(text);
    return m ? m.slice(1) : null;
  }

  // small deterministic PRNG (mulberry32)
  function rng(seed: number) {
    return () => {
      seed |= 0;
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('3000 random texts and templates over a tiny alphabet', () => {
    const rand = rng(20261121);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    let matched = 0;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: Math.floor(rand() * 9) }, () => pick(['a', 'b', '.'])).join('');
      const template = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => pick(['a', 'b', '.', M, M])).join('');
      const expected = reference(text, template);
      expect(matchTemplate(text, template), `${JSON.stringify(text)} vs ${JSON.stringify(template)}`).toEqual(expected);
      if (expected) matched++;
    }
    expect(matched).toBeGreaterThan(100); // the sample exercises both outcomes
  });
});
