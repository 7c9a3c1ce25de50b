import { Fragment } from 'react';
import type { TextRange } from '../../../shared/api';

/**
 * Plain text with some ranges marked (search matches): React text nodes and <mark>, never HTML from
 * the server. Ranges are [start, end) string indexes, in order, not overlapping.
 */
export function Highlighted({ text, ranges, className }: { text: string; ranges: readonly TextRange[]; className?: string }) {
  const parts = [];
  let at = 0;
  for (const { start, end } of ranges) {
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    parts.push(
      <mark key={`m${start}`} className={className}>
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}
