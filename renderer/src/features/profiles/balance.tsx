// Checking a profile's key and balance with a harmless balance query, and saying the outcome in words.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Space, Spin, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { BalanceView, ProfileView } from '../../../../common/contract';
import { SIGNATURE_REJECTED } from '../../../../common/domain/codes';
import { call, describeError, type IpcResult } from '../../app/api';
import { currentLanguage, type Language } from '../../i18n';

const FAILURE_KINDS = ['dns', 'refused', 'connect-timeout', 'tls', 'timeout', 'reset', 'aborted', 'too-large', 'network', 'unreadable-reply'] as const;
type FailureKind = (typeof FAILURE_KINDS)[number];
const isFailureKind = (kind: string): kind is FailureKind => (FAILURE_KINDS as readonly string[]).includes(kind);

export type BalanceCheck = { state: 'idle' } | { state: 'checking' } | { state: 'done'; result: IpcResult<BalanceView> };

/** Runs balance.query for a profile; a result that arrives after the profile changed is dropped. */
export function useBalanceCheck(profileId: string | null): { check: BalanceCheck; run: () => Promise<void>; reset: () => void } {
  const [check, setCheck] = useState<BalanceCheck>({ state: 'idle' });
  const current = useRef(profileId);
  useEffect(() => {
    current.current = profileId;
    setCheck({ state: 'idle' });
  }, [profileId]);
  const run = useCallback(async () => {
    if (!profileId) return;
    setCheck({ state: 'checking' });
    const result = await call((api) => api.balance.query({ profileId }));
    if (current.current === profileId) setCheck({ state: 'done', result });
  }, [profileId]);
  const reset = useCallback(() => setCheck({ state: 'idle' }), []);
  return { check, run, reset };
}

interface Described {
  type: 'success' | 'warning' | 'error';
  title: string;
  body: string[];
}

/** The outcome of a balance query in words, in the user's language. Exported for reuse by other screens. */
export function describeBalance(t: TFunction, lang: Language, result: IpcResult<BalanceView>, threshold: number | null): Described {
  if (!result.ok) return { type: 'error', title: t('balance.failedTitle'), body: [describeError(t, result.error)] };
  const v = result.value;
  if (v.units !== null) {
    const units = t('balance.units', { count: v.units });
    const body = [t('balance.okBody')];
    if (v.low) body.push(t('balance.low', { threshold: t('balance.units', { count: threshold ?? 0 }) }));
    return { type: v.low ? 'warning' : 'success', title: t('balance.okTitle', { units }), body };
  }
  if (v.code && !v.code.success) return { type: 'error', title: v.code.meaning[lang], body: [v.code.action[lang]] };
  if (v.code?.success) return { type: 'warning', title: t('balance.unreadableTitle'), body: [t('balance.unreadableBody')] };
  if (v.failure) {
    if (v.failure.kind === SIGNATURE_REJECTED.id) {
      return { type: 'error', title: SIGNATURE_REJECTED.meaning[lang], body: [SIGNATURE_REJECTED.action[lang]] };
    }
    const title = isFailureKind(v.failure.kind) ? t(`balance.failure.${v.failure.kind}`) : t('balance.failure.other');
    const body = v.failure.outcome === 'not-sent' ? [t('balance.failedNotSent')] : v.failure.outcome === 'unknown' ? [t('balance.failedUnknown')] : [];
    return { type: 'error', title, body };
  }
  return { type: 'error', title: t('balance.failedTitle'), body: [t('balance.failure.other')] };
}

/** Shows a balance check: a spinner while it runs, then the outcome in words. */
export function BalanceResult({ check, profile }: { check: BalanceCheck; profile: ProfileView }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  if (check.state === 'idle') return null;
  if (check.state === 'checking') {
    return (
      <div role="status" aria-live="polite" data-testid="balance-checking" style={{ padding: '12px 0' }}>
        <Space>
          <Spin size="small" />
          <Typography.Text>{t('balance.checking')}</Typography.Text>
        </Space>
      </div>
    );
  }
  const d = describeBalance(t, lang, check.result, profile.lowBalanceThreshold);
  const checkedAt = check.result.ok ? new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(check.result.value.checkedAt)) : null;
  return (
    <div role="status" aria-live="polite" data-testid="balance-result" data-outcome={d.type}>
      <Alert
        type={d.type}
        showIcon
        title={d.title}
        description={
          d.body.length || checkedAt ? (
            <>
              {d.body.map((line) => (
                <div key={line}>{line}</div>
              ))}
              {checkedAt ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('balance.checkedAt', { time: checkedAt })}
                </Typography.Text>
              ) : null}
            </>
          ) : undefined
        }
      />
    </div>
  );
}
