import { memo, useMemo } from 'react';
import { Typography } from '@mantine/core';
import 'highlight.js/styles/github.css';
import { renderMarkdownBlocks } from './markdown';
import classes from './chat.module.css';

const MarkdownBlock = memo(function MarkdownBlock({ html }: { html: string }) {
  return <div className={classes.markdownBlock} dangerouslySetInnerHTML={{ __html: html }} />;
});

/** Sanitized markdown; unchanged blocks keep their DOM while an answer streams in. */
export const MarkdownContent = memo(function MarkdownContent({ text }: { text: string }) {
  const blocks = useMemo(() => renderMarkdownBlocks(text), [text]);
  return (
    <Typography className={classes.markdown}>
      {blocks.map((html, index) => (
        <MarkdownBlock key={index} html={html} />
      ))}
    </Typography>
  );
});
