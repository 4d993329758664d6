// Bytes in hex, two digits per byte, grouped and wrapping; line breaks (0a) stand out.
import { forwardRef } from 'react';

export interface HexBytesProps {
  hex: string;
  /** Bytes per group (a group never breaks across lines). */
  group?: number;
  /** Highlight 0a (the line breaks of a string to sign). */
  markLineBreaks?: boolean;
  testId?: string;
  label: string;
}

export const HexBytes = forwardRef<HTMLDivElement, HexBytesProps>(function HexBytes({ hex, group = 8, markLineBreaks = false, testId, label }, ref) {
  const bytes = hex.match(/../g) ?? [];
  const groups: string[][] = [];
  for (let i = 0; i < bytes.length; i += group) groups.push(bytes.slice(i, i + group));
  return (
    <div className="sig-hex" ref={ref} data-testid={testId} data-hex={hex} aria-label={label} role="group">
      {groups.map((g, gi) => (
        <span className="sig-hex-group" key={gi}>
          {g.map((b, bi) => (
            <span key={bi} className={markLineBreaks && b === '0a' ? 'sig-hex-byte sig-hex-lb' : 'sig-hex-byte'}>
              {b}
            </span>
          ))}
        </span>
      ))}
    </div>
  );
});
