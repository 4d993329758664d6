// Text as antd's Typography draws it, for the shell and the Send screen (the first screen): a span,
// a level-3 heading or a paragraph; secondary or danger; strong; cut with an ellipsis on one line.
// The same elements and look (app.css, the theme's variables). antd's Typography brings its editing,
// copying, measured ellipsis and tooltips (about 20 KB of the first screen) that these texts never
// use; the other screens, and the Send screen's parts loaded later, keep it.
import type { HTMLAttributes } from 'react';

type Tone = 'secondary' | 'danger';

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

export interface TextProps extends HTMLAttributes<HTMLSpanElement> {
  type?: Tone;
  strong?: boolean;
  /** Cut to one line with an ellipsis. */
  ellipsis?: boolean;
}

export function Text({ type, strong, ellipsis, className, children, ...rest }: TextProps) {
  return (
    <span {...rest} className={classes('callout-text', type && `callout-text-${type}`, ellipsis && 'callout-text-ellipsis', className)}>
      {strong ? <strong>{children}</strong> : children}
    </span>
  );
}

/** A screen's title (antd's Title, level 3). */
export function Title({ className, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
  return <h3 {...rest} className={classes('callout-text', className)} />;
}

export interface ParagraphProps extends HTMLAttributes<HTMLDivElement> {
  type?: Tone;
}

export function Paragraph({ type, className, ...rest }: ParagraphProps) {
  return <div {...rest} className={classes('callout-text', type && `callout-text-${type}`, className)} />;
}
