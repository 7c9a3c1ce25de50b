import { useMemo } from 'react';
import { Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import classes from './MarkdownContent.module.css';

/** Markdown to HTML through DOMPurify: no script, handler or javascript: URL survives. */
export function renderMarkdown(markdown: string): string {
  return DOMPurify.sanitize(marked.parse(markdown, { async: false, gfm: true }));
}

export function MarkdownContent({ markdown }: { markdown: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return <Typography fz="sm" className={classes.content} dangerouslySetInnerHTML={{ __html: html }} />;
}
