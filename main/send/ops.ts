// The send slice of the handler table: placing a call, following it, reading it back, the balance.
import type { BalanceView, SendView } from '../../common/contract';
import type { sendOps } from '../../common/contract/send';
import type { MessageRecord } from '../../common/records';
import { unmappedValue } from '../../common/reasons';
import type { CallService, SendOutcome } from '../calls/call-service';
import type { Clock } from '../clock';
import type { Ops } from '../ops';
import type { ProfileService } from '../profiles/profile-service';
import type { SentMessages } from './sent-messages';

type Calls = Pick<CallService, 'send' | 'sendAgain' | 'refresh' | 'status' | 'balance'>;

const sendView = (r: SendOutcome): SendView => ({ message: r.message, providerCode: r.reply?.code ?? null, failure: r.failure });

export function sendOpsOf(d: { calls: Calls; sent: SentMessages; profiles: Pick<ProfileService, 'record'>; clock: Clock }): Ops<typeof sendOps> {
  const { calls, sent, profiles, clock } = d;
  return {
    'messages.send': async ({ profileId, mobile, content, templateId }) =>
      sendView(await calls.send(profileId, { mobile, content, templateId: templateId ?? null })),
    'messages.sendAgain': async ({ id }) => sendView(await calls.sendAgain(id)),
    'messages.recents': async () => sent.recents(),
    'messages.refreshStatus': ({ id }) => calls.refresh(id),
    'messages.queryStatus': async ({ profileId, smsid }) => {
      const r = await calls.status(profileId, smsid);
      if (r.receiptsOnly && r.message) {
        // A provider that only pushes: the call as its receipts left it (a value not mapped included), nothing asked.
        const m = r.message;
        const unmapped = unmappedValue(m.reason);
        return {
          smsid,
          accepted: false,
          providerCode: null,
          msg: null,
          state: m.state,
          value: unmapped,
          unmapped: unmapped !== null,
          duration: m.duration,
          raw: null,
          message: m,
          failure: null,
          receiptsOnly: true,
        };
      }
      const ok = r.reply?.outcome === 'accepted';
      return {
        smsid: r.reply?.smsid ?? smsid,
        accepted: ok,
        providerCode: r.reply?.code ?? null,
        msg: r.reply?.msg ?? null,
        state: ok ? r.reply!.state : 'unknown',
        value: ok ? r.reply!.rawState : null,
        unmapped: ok ? r.reply!.unmapped : false,
        duration: ok ? r.reply!.duration : null,
        raw: r.reply?.raw ?? null,
        message: r.message,
        failure: r.failure,
        receiptsOnly: false,
      };
    },
    'messages.get': async ({ id }) => sent.detail(id),
    'balance.query': async ({ profileId }): Promise<BalanceView> => {
      const r = await calls.balance(profileId);
      const threshold = profiles.record(profileId).lowBalanceThreshold;
      const units = r.reply?.outcome === 'accepted' ? r.reply.units : null;
      return {
        profileId,
        accepted: r.reply?.outcome === 'accepted',
        units,
        raw: r.reply?.raw ?? null,
        providerCode: r.reply?.code ?? null,
        failure: r.failure,
        low: units !== null && threshold !== null && units <= threshold,
        checkedAt: clock.now(),
      };
    },
  };
}

/** Operations only a caller in this process has (the CLI): waiting for a call's end keeps a plain Node process up. */
export function localSendOps(calls: Pick<CallService, 'awaitEnd'>) {
  return {
    'messages.awaitEnd': ({ id, signal }: { id: number; signal?: AbortSignal }): Promise<MessageRecord> => calls.awaitEnd(id, signal),
  };
}
