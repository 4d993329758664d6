// A card as antd's Card draws one, bordered, with a title, an optional extra and a body, default or
// small: for the Send screen (the first screen), because antd's Card brings its Tabs and rc-menu
// under them for tab lists (about 60 KB of the first screen that no card there uses). The same
// elements and look (app.css, the theme's variables); the other screens keep antd's Card.
import type { HTMLAttributes, ReactNode } from 'react';

export interface PanelProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  title?: ReactNode;
  /** Beside the title, at the end of the head (an action). */
  extra?: ReactNode;
  size?: 'default' | 'small';
}

export function Panel({ title, extra, size = 'default', className, children, ...rest }: PanelProps) {
  const classes = ['callout-panel', size === 'small' ? 'callout-panel-small' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div {...rest} className={classes}>
      {title || extra ? (
        <div className="callout-panel-head">
          <div className="callout-panel-head-wrapper">
            {title ? <div className="callout-panel-title">{title}</div> : null}
            {extra ? <div className="callout-panel-extra">{extra}</div> : null}
          </div>
        </div>
      ) : null}
      <div className="callout-panel-body">{children}</div>
    </div>
  );
}
