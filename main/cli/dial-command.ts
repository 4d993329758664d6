// `callout dial CONTACT... [--template ID --var NAME=VALUE ...] [--until-answered N --pause S] [--override]`
// Calls a contact (or a number); with several, an escalation list: the next is called only when the
// previous did not answer.
import { Command, Option } from 'commander';
import { maskMobile } from '../../common/domain/mobile';
import { parseTemplate } from '../../common/domain/templates';
import { ContactError } from '../dial/contacts';
import { DialError, MAX_ATTEMPTS, type DialProgress, type DialRequest, type DialResult } from '../dial/dialer';
import { openCliRuntime, printAndFail, progressLine, type CommandContext } from './bulk-command';
import { CliFailure, EXIT } from './io';
import { fillFromVars, VarError } from './template-vars';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function wholeNumber(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new CliFailure(EXIT.usage, 'usage', `${name} must be a whole number from ${min} to ${max}, got "${value}".`);
    return n;
  };
}

function seconds(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || n > 3600) throw new CliFailure(EXIT.usage, 'usage', `${name} must be 0 to 3600 seconds, got "${value}".`);
    return n;
  };
}

function progressText(p: DialProgress): string {
  const who = p.target.name ? `${p.target.name} (${maskMobile(p.target.mobile)})` : maskMobile(p.target.mobile);
  const of = p.maxAttempts > 1 ? ` attempt ${p.attempt}/${p.maxAttempts}` : '';
  switch (p.phase) {
    case 'calling':
      return `Calling ${who}${of}${p.state ? ` · ${p.state}` : ''}…`;
    case 'ended':
      return `${who}: ${p.state ?? 'ended'}`;
    case 'waiting':
      return `${who}: next attempt at ${p.nextAttemptAt ? new Date(p.nextAttemptAt).toLocaleTimeString() : '?'}`;
    case 'refused':
      return `${who}: ${p.refusals.map((r) => r.message).join(' ')}`;
    case 'next-target':
      return `No answer; calling the next person: ${who}`;
    default:
      return p.result?.message ?? '';
  }
}

function resultJson(r: DialResult) {
  return {
    status: r.status,
    message: r.message,
    answered: r.answered && { name: r.answered.name, mobile: r.answered.mobile, contactId: r.answered.contactId, messageId: r.answered.messageId },
    attempts: r.attempts.map((a) => ({ target: a.targetIndex, attempt: a.attempt, mobile: a.mobile, messageId: a.messageId, outcome: a.outcome, state: a.state, code: a.code })),
    refusals: r.refusals.map((x) => ({ limit: x.limit, mobile: x.mobile, count: x.count, max: x.max, freesAt: new Date(x.freesAt).toISOString(), message: x.message })),
  };
}

export function registerDialCommand(program: Command, ctx: CommandContext): void {
  program
    .command('dial')
    .description('call a contact (name, #id or number); several = an escalation list, called in order until someone answers')
    .argument('<contact...>', 'contact name, #id, or a mainland mobile number')
    .option('--template <id>', "the template (default: the contact's last used one)")
    .option('--var <name=value>', 'a template variable by label or position; repeatable (default: the last values used for this contact)', collect, [])
    .option('--content <text>', 'the exact text instead of a template')
    .addOption(new Option('--until-answered <n>', `call each person up to N times until one call is answered (1 to ${MAX_ATTEMPTS})`).argParser(wholeNumber('--until-answered', 1, MAX_ATTEMPTS)))
    .addOption(new Option('--pause <seconds>', 'wait between the end of one call and the next attempt (default 60)').argParser(seconds('--pause')))
    .option('--override', 'call even if a per-number limit or quiet hours say not to (you confirm it)')
    .action(async (refs: string[], opts: { template?: string; var: string[]; content?: string; untilAnswered?: number; pause?: number; override?: boolean }) => {
      if (opts.content !== undefined && (opts.template !== undefined || opts.var.length)) throw new CliFailure(EXIT.usage, 'usage', 'Give either --content TEXT or --template ID (with --var), not both.');
      const profileId = await ctx.session.providerProfile(ctx.flags());
      const line = progressLine(ctx);
      const { runtime, close } = openCliRuntime(ctx, { onDialProgress: (p) => line.update(progressText(p)) });
      try {
        const { contacts, dialer } = runtime;
        const targets: NonNullable<DialRequest['targets']> = [];
        for (const ref of refs) {
          try {
            targets.push({ contactId: contacts.resolve(ref).id });
          } catch (error) {
            if (!(error instanceof ContactError)) throw error;
            if (/^[+\d\s()-]{7,}$/.test(ref.trim())) targets.push({ mobile: ref });
            else throw new CliFailure(EXIT.usage, error.code === 'ambiguous' ? 'ambiguous-contact' : 'not-found', error.message);
          }
        }
        const first = 'contactId' in targets[0]! ? contacts.get(targets[0].contactId) : null;
        const templateId = opts.content !== undefined ? null : (opts.template ?? first?.lastTemplateId ?? null);
        if (opts.content === undefined && !templateId) throw new CliFailure(EXIT.usage, 'usage', 'Give the template to use: --template ID (this contact has none remembered yet).');
        let values: string[] | undefined;
        if (templateId && opts.var.length) {
          const template = (await ctx.session.call('templates.list', undefined)).find((t) => t.id === templateId);
          if (!template) throw new CliFailure(EXIT.usage, 'usage', `No template "${templateId}" in the local library.`);
          try {
            fillFromVars(template, opts.var); // checks labels and that every variable has a value
            values = valuesFromVars(template, opts.var);
          } catch (error) {
            if (error instanceof VarError) throw new CliFailure(EXIT.usage, 'invalid-var', error.message);
            throw error;
          }
        }
        const req: DialRequest = {
          profileId,
          targets,
          templateId,
          values,
          content: opts.content,
          attempts: opts.untilAnswered ?? 1,
          pauseSeconds: opts.pause ?? 60,
          override: opts.override ?? false,
        };
        let result: DialResult;
        try {
          result = await dialer.run(req);
        } catch (error) {
          if (error instanceof DialError || error instanceof ContactError) throw new CliFailure(EXIT.usage, error.code, error.message);
          throw error;
        }
        line.end();
        const value = resultJson(result);
        const human = [
          result.message,
          ...result.attempts.map((a) => `  ${maskMobile(a.mobile)} attempt ${a.attempt}: ${a.outcome}${a.state ? `/${a.state}` : ''}${a.messageId ? ` · message #${a.messageId}` : ''}`),
        ].join('\n');
        if (result.status === 'answered') {
          if (ctx.json()) ctx.io.stdout(`${JSON.stringify(value)}\n`);
          else ctx.io.stdout(`${human}\n`);
          return;
        }
        const failures: Record<Exclude<DialResult['status'], 'answered'>, CliFailure> = {
          'not-answered': new CliFailure(EXIT.invalid, 'not-answered', result.message),
          refused: new CliFailure(EXIT.usage, 'dial-limited', `${result.message} Nothing was sent; add --override to call anyway.`),
          failed: new CliFailure(EXIT.rejected, 'failed', result.message),
          unknown: new CliFailure(EXIT.transport, 'unknown', result.message),
          cancelled: new CliFailure(1, 'cancelled', result.message),
        };
        printAndFail(ctx, value, human, failures[result.status]);
      } finally {
        line.end();
        await close();
      }
    });
}

/** The marker values from NAME=VALUE pairs, by label or position (already checked by fillFromVars). */
function valuesFromVars(template: { content: string; markerNames: string[] }, pairs: readonly string[]): string[] {
  const values = new Array<string>(parseTemplate(template.content).markerCount).fill('');
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    let index = template.markerNames.indexOf(name);
    if (index < 0) index = Number(name) - 1;
    values[index] = pair.slice(eq + 1);
  }
  return values;
}
