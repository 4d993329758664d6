// What the capture proxy found about one exchange a backend sent: the overall verdict as a tag (in
// the list), and each check with its verdict, its text, the rules it broke and, for a signature that
// fails, the likely causes as the workbench diagnoses them (in the inspector). Texts come from the
// message catalog (capture.*, diagnosis.*), in the reader's language.
import type { ReactNode } from 'react';
import { Alert, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CaptureCheck, CaptureInfo, Verdict } from '../../../../common/capture';
import type { TFunction } from 'i18next';
import { codedArgs, MESSAGES_NS } from '../../../../common/messages';

/** A coded text of main's (keys come from main's codes; test/unit/messages/capture-catalog.test.ts checks them all). */
function say(t: TFunction, section: string, text: { code: string; params?: object }): string {
  const [key, options] = codedArgs(section, text);
  return (t as unknown as (key: string, options: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

const COLOR: Record<Verdict, string> = { pass: 'green', warn: 'orange', fail: 'red', skip: 'default' };
const ICON: Record<Verdict, ReactNode> = {
  pass: <CheckCircleFilled style={{ color: '#52c41a' }} />,
  warn: <ExclamationCircleFilled style={{ color: '#fa8c16' }} />,
  fail: <CloseCircleFilled style={{ color: '#ff4d4f' }} />,
  skip: <MinusCircleOutlined style={{ color: '#8c8c8c' }} />,
};

/** The overall verdict of a captured exchange, as a small tag. */
export function VerdictTag({ capture }: { capture: CaptureInfo }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={COLOR[capture.verdict]}
      className="history-tag"
      data-testid="capture-verdict"
      data-verdict={capture.verdict}
      title={t('history.capture.verdictTitle')}
    >
      {t(`capture.verdict.${capture.verdict}`, { ns: 'msg' })}
    </Tag>
  );
}

function CheckRow({ c }: { c: CaptureCheck }) {
  const { t } = useTranslation();
  const text = (section: string, x: { code: string; params?: object }) => say(t, section, x);
  return (
    <li className="capture-check" data-testid="capture-check" data-check={c.check} data-verdict={c.verdict}>
      <span className="capture-check-icon" aria-hidden>
        {ICON[c.verdict]}
      </span>
      <div className="capture-check-body">
        <Typography.Text strong>{t(`capture.checkName.${c.check}`, { ns: 'msg' })}</Typography.Text>
        <Tag color={COLOR[c.verdict]} className="history-tag" style={{ marginInlineStart: 8 }}>
          {t(`capture.verdict.${c.verdict}`, { ns: 'msg' })}
        </Tag>
        <div className="capture-check-text">{text('capture.check', c)}</div>
        {c.detail ? <div className="capture-check-text history-muted">{text('diagnosis', c.detail)}</div> : null}
        {c.issues?.length ? (
          <ul className="capture-issues" data-testid="capture-issues">
            {c.issues.map((i, n) => (
              <li key={n} data-verdict={i.verdict}>
                {ICON[i.verdict]} {text('capture.rule', i)}
              </li>
            ))}
          </ul>
        ) : null}
        {c.causes?.length ? (
          <div className="capture-causes">
            <Typography.Text type="secondary">{t('history.capture.causes')}</Typography.Text>
            <ul className="capture-issues" data-testid="capture-causes">
              {c.causes.map((cause, n) => (
                <li key={n}>{text('diagnosis', cause.evidence)}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** The checks of a captured exchange, above its request and response in the inspector. */
export function CaptureChecks({ capture }: { capture: CaptureInfo }) {
  const { t } = useTranslation();
  const cut = [capture.request, capture.response].some((b) => b.kept < b.bytes) && capture.mode !== 'tunnel';
  return (
    <section className="capture-checks" data-testid="capture-checks" aria-label={t('history.capture.checks')}>
      <div className="capture-checks-head">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('history.capture.checks')}
        </Typography.Title>
        <VerdictTag capture={capture} />
        <Typography.Text type="secondary" data-testid="capture-mode">
          {t('history.capture.how', {
            mode: t(`capture.mode.${capture.mode}`, { ns: 'msg' }),
            answered: t(`capture.answeredBy.${capture.answeredBy}`, { ns: 'msg' }),
          })}
        </Typography.Text>
      </div>
      {capture.hostForwarded ? <Typography.Text type="secondary">{t('history.capture.hostForwarded', { host: capture.hostForwarded })}</Typography.Text> : null}
      <ul className="capture-check-list">
        {capture.checks.map((c, i) => (
          <CheckRow key={`${c.check}-${i}`} c={c} />
        ))}
      </ul>
      {cut ? (
        <Alert
          type="info"
          showIcon
          title={[capture.request, capture.response]
            .filter((b) => b.kept < b.bytes)
            .map((b) => t('capture.cut', { ns: 'msg', kept: b.kept, bytes: b.bytes }))
            .join(' ')}
        />
      ) : null}
    </section>
  );
}
