// One output of the workbench: a numbered title, a copy button, and the value in a monospace box.
import { useRef, type ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import { CopyButton } from './CopyButton';

export interface OutputBlockProps {
  step?: number;
  title: ReactNode;
  /** The words for "Copy …" (the copy button's name). */
  copyWhat: string;
  /** The exact text the copy button copies. */
  copyText: string;
  testId: string;
  extra?: ReactNode;
  children: ReactNode;
}

export function OutputBlock({ step, title, copyWhat, copyText, testId, extra, children }: OutputBlockProps) {
  const box = useRef<HTMLDivElement>(null);
  return (
    <section className="sig-output" data-testid={testId} aria-label={typeof title === 'string' ? title : copyWhat}>
      <Flex align="center" justify="space-between" gap={8} className="sig-output-head">
        <Typography.Text strong>
          {step !== undefined ? <span className="sig-step">{step}</span> : null}
          {title}
        </Typography.Text>
        <Flex align="center" gap={8}>
          {extra}
          <CopyButton text={copyText} what={copyWhat} target={box} testId={`${testId}-copy`} />
        </Flex>
      </Flex>
      <div className="sig-output-box" ref={box} data-testid={`${testId}-value`}>
        {children}
      </div>
    </section>
  );
}
