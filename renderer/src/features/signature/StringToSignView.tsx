// The string to sign, one row per line, with every line break made visible (⏎ \n) and, after
// line 4, whether a trailing line break follows: the one thing the spec leaves open.
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { splitStringToSign } from './request-text';

export interface StringToSignViewProps {
  text: string;
  testId?: string;
}

/** Makes spaces at the start or end of a line visible (they are signed, and easy to miss). */
function showEdges(line: string) {
  const lead = /^ +/.exec(line)?.[0].length ?? 0;
  const tail = line.length > lead ? (/ +$/.exec(line)?.[0].length ?? 0) : 0;
  if (lead === 0 && tail === 0) return line;
  return (
    <>
      {lead ? <span className="sig-space">{'·'.repeat(lead)}</span> : null}
      {line.slice(lead, line.length - tail)}
      {tail ? <span className="sig-space">{'·'.repeat(tail)}</span> : null}
    </>
  );
}

export const StringToSignView = forwardRef<HTMLOListElement, StringToSignViewProps>(function StringToSignView({ text, testId }, ref) {
  const { t } = useTranslation();
  const { lines, trailing } = splitStringToSign(text);
  return (
    <ol className="sig-sts" ref={ref} data-testid={testId} data-trailing={trailing ? 'true' : 'false'} aria-label={t('signature.sts.label')}>
      {lines.map((line, i) => {
        const last = i === lines.length - 1;
        return (
          <li key={i} className="sig-sts-line">
            <span className="sig-sts-no" aria-hidden>
              {i + 1}
            </span>
            <code className="sig-sts-text" data-testid={testId ? `${testId}-line` : undefined}>
              {showEdges(line)}
            </code>
            {!last ? (
              <span className="sig-lb" title={t('signature.sts.lineBreak')}>
                ⏎ \n
              </span>
            ) : trailing ? (
              <span className="sig-lb sig-lb-trailing" data-testid={testId ? `${testId}-trailing` : undefined}>
                ⏎ \n <span className="sig-lb-note">{t('signature.sts.trailing')}</span>
              </span>
            ) : (
              <span className="sig-lb-none" data-testid={testId ? `${testId}-trailing` : undefined}>
                {t('signature.sts.noTrailing')}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
});
