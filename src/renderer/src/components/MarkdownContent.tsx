import { useMemo } from 'react';
import { Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Markdown to HTML through DOMPurify: no script, handler or javascript: URL survives. */
export function renderMarkdown(markdown: string): string {
  return DOMPurify.sanitize(marked.parse(markdown, { async: false, gfm: true }));
}

export function MarkdownContent({ markdown }: { markdown: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return <Typography fz="sm" dangerouslySetInnerHTML={{ __html: html }} />;
}
