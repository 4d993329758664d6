// A loading placeholder as antd's active Skeleton draws one (a title bar and lines, the last one
// shorter, shimmering): for the shell and the Send screen (the first screen), because antd's
// Skeleton brings its avatar, button, input, image and node placeholders and their styles along.
// The same elements and look (app.css, the theme's variables).

export interface SkeletonProps {
  /** The title bar above the lines (38% wide). */
  title?: boolean;
  rows?: number;
  /** The last line's width. */
  lastWidth?: string;
}

export function Skeleton({ title = true, rows = 3, lastWidth = '61%' }: SkeletonProps) {
  return (
    <div className="callout-skeleton">
      <div className="callout-skeleton-section">
        {/* As antd's: an empty h3 and a list, so that the browser's own margins are the same. */}
        {title ? <h3 className="callout-skeleton-title" style={{ width: '38%' }} /> : null}
        <ul className="callout-skeleton-paragraph">
          {Array.from({ length: rows }, (_, i) => (
            <li key={i} style={{ width: i === rows - 1 ? lastWidth : undefined }} />
          ))}
        </ul>
      </div>
    </div>
  );
}
