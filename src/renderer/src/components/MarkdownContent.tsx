import { useMemo } from 'react';
import { Typography } from '@mantine/core';
import { marked } from 'marked';
import classes from './MarkdownContent.module.css';
import { sanitizeHtml } from './sanitizeHtml';

/** Markdown to sanitized HTML (see sanitizeHtml). */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false, gfm: true }));
}

export function MarkdownContent({ markdown }: { markdown: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return <Typography fz="sm" className={classes.content} dangerouslySetInnerHTML={{ __html: html }} />;
}
