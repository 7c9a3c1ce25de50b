import { memo, useMemo, useSyncExternalStore } from 'react';
import { Typography } from '@mantine/core';
import 'highlight.js/styles/github.css';
import { loadedGrammarCount, subscribeGrammars } from './highlight';
import { CodeBlock } from '../../components/CopyButton';
import { renderMarkdownBlocks } from './markdown';
import classes from './chat.module.css';

const MarkdownBlock = memo(function MarkdownBlock({ html, code }: { html: string; code: string | null }) {
  const block = <div className={classes.markdownBlock} dangerouslySetInnerHTML={{ __html: html }} />;
  return code === null ? block : <CodeBlock code={code}>{block}</CodeBlock>;
});

/** Sanitized markdown; unchanged blocks keep their DOM while an answer streams in. */
export const MarkdownContent = memo(function MarkdownContent({ text }: { text: string }) {
  // A code grammar arriving re-renders the blocks that waited for it (the others come from the cache).
  const grammars = useSyncExternalStore(subscribeGrammars, loadedGrammarCount);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `grammars` is the reason to render again
  const blocks = useMemo(() => renderMarkdownBlocks(text), [text, grammars]);
  return (
    <Typography className={classes.markdown}>
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} html={block.html} code={block.code} />
      ))}
    </Typography>
  );
});
