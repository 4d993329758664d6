// The renderer's Content-Security-Policy (a <meta> in renderer/index.html, carried into
// the built out/renderer/index.html by Vite) is the renderer's last line of defence.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

type Policy = Map<string, string[]>;

function cspOf(html: string): string {
  const metas = html.match(/<meta\b[^>]*>/gi) ?? [];
  const csp = metas.filter((tag) => /http-equiv\s*=\s*["']content-security-policy["']/i.test(tag));
  expect(csp, 'exactly one CSP meta').toHaveLength(1);
  const content = /content\s*=\s*"([^"]*)"/i.exec(csp[0] ?? '') ?? /content\s*=\s*'([^']*)'/i.exec(csp[0] ?? '');
  expect(content, 'CSP meta has content').not.toBeNull();
  return content?.[1] ?? '';
}

function parsePolicy(text: string): Policy {
  const policy: Policy = new Map();
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(policy.has(name.toLowerCase()), `directive ${name} appears once`).toBe(false);
    policy.set(name.toLowerCase(), sources);
  }
  return policy;
}

/** The effective sources for a fetch directive (falls back to default-src). */
function sources(policy: Policy, directive: string): string[] {
  return policy.get(directive) ?? policy.get('default-src') ?? [];
}

function checkPolicy(policy: Policy): void {
  expect(policy.get('default-src')).toEqual(["'self'"]);

  const script = sources(policy, 'script-src');
  expect(script).toContain("'self'");
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", 'data:', 'blob:', '*']) {
    expect(script, `script-src must not allow ${bad}`).not.toContain(bad);
  }
  expect(policy.has('script-src-elem') || policy.has('script-src-attr')).toBe(false);

  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(sources(policy, 'connect-src')).toEqual(["'self'"]);

  for (const [directive, list] of policy) {
    for (const source of list) {
      expect(source, `${directive} must not load from the network`).not.toMatch(/^(https?:|wss?:|\*|[a-z0-9-]+\.[a-z])/i);
    }
  }

  // Hardening beyond the brief that is already there: keep it.
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'none'"]);
}

describe('renderer Content-Security-Policy', () => {
  const source = resolve('renderer/index.html');

  it('renderer/index.html: self only, no inline/eval script, no objects, no remote sources', () => {
    checkPolicy(parsePolicy(cspOf(readFileSync(source, 'utf8'))));
  });

  it('renderer/index.html has no inline scripts or inline event handlers', () => {
    const html = readFileSync(source, 'utf8');
    for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) expect(tag).toMatch(/\bsrc\s*=/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  const built = resolve('out/renderer/index.html');
  it.runIf(existsSync(built))('the built out/renderer/index.html keeps the same policy', () => {
    const html = readFileSync(built, 'utf8');
    expect(parsePolicy(cspOf(html))).toEqual(parsePolicy(cspOf(readFileSync(source, 'utf8'))));
    checkPolicy(parsePolicy(cspOf(html)));
  });
});
