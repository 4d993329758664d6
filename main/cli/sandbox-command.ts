import type { Dialect } from '../../common/dialects';
import { fillTemplate } from '../../common/domain/templates';
import { DEMO_TEMPLATES, startSandbox } from '../sandbox';
import type { CliIo } from './io';
import type { CliWords } from './text';

export interface SandboxCommandOptions {
  port?: number;
  timeScale: number;
  signature: 'off' | 'spec' | 'apisix' | 'any';
  /** Answer (and push receipts) in this dialect's shape. */
  dialect?: Dialect;
  /** Push a receipt there when a call ends. */
  receiptsTo?: string;
}

/** `callout sandbox`: runs the sandbox provider in the foreground until SIGINT/SIGTERM. */
export async function runSandboxCommand(opts: SandboxCommandOptions, io: CliIo, json: boolean, words: CliWords, until?: Promise<void>): Promise<void> {
  const { t } = words;
  const sandbox = await startSandbox({
    port: opts.port ?? 0,
    timeScale: opts.timeScale,
    signature: opts.signature,
    dialect: opts.dialect,
    receiptsUrl: opts.receiptsTo ?? null,
  });
  const dialect = opts.dialect?.id ?? opts.dialect?.name ?? 'spec';
  const { apiId, apiKey } = sandbox.demo;
  const templates = sandbox.templates(apiId);
  if (json) {
    io.stdout(
      `${JSON.stringify({ baseUrl: sandbox.baseUrl, apiId, apiKey, signature: opts.signature, dialect, receiptsTo: opts.receiptsTo ?? null, templates: templates.map((t) => ({ content: t.content, approved: t.approved })) })}\n`,
    );
  } else {
    // Each demo template's markers filled with values of their kind (a name, an order number...).
    const examples = DEMO_TEMPLATES.filter((d) => d.approved).map((d) => fillTemplate(d.content, d.example));
    io.stdout(
      [
        t('cli:sandbox.listening', { url: sandbox.baseUrl, signature: opts.signature, scale: opts.timeScale }),
        t('cli:sandbox.dialect', { dialect }),
        ...(opts.receiptsTo ? [t('cli:sandbox.receiptsTo', { url: opts.receiptsTo })] : []),
        '',
        t('cli:sandbox.credentials'),
        `  export CALLOUT_BASE_URL=${sandbox.baseUrl}`,
        `  export CALLOUT_API_ID=${apiId}`,
        `  export CALLOUT_API_KEY=${apiKey}`,
        '',
        t('cli:sandbox.templates'),
        ...templates.filter((x) => x.approved).map((x) => `  ${x.content}`),
        '',
        t('cli:sandbox.try'),
        ...examples.map((text) => `  callout send --to 13800138008 --content "${text}"`),
        t('cli:sandbox.digits'),
        t('cli:sandbox.faults'),
        '',
      ].join('\n'),
    );
  }
  await (until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }));
  await sandbox.close();
}
