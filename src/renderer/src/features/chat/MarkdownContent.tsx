import { memo, useMemo, useRef, useSyncExternalStore } from 'react';
import { Typography } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import 'highlight.js/styles/github.css';
import { onDemandArrivals, subscribeOnDemand } from './onDemand';
import { CodeBlock } from '../../components/CopyButton';
import { renderMarkdown, type MarkdownBlock, type RenderedMarkdown } from './markdown';
import { MermaidDiagram } from './MermaidDiagram';
import classes from './chat.module.css';

const Html = ({ html }: { html: string }) => <div className={classes.markdownBlock} dangerouslySetInnerHTML={{ __html: html }} />;

const Block = memo(function Block({ kind, html, source }: { kind: MarkdownBlock['kind']; html: string; source: string | null }) {
  const { t } = useTranslation('sharing');
  if (source === null || kind === 'text') return <Html html={html} />;
  if (kind === 'diagram') return <MermaidDiagram source={source} codeHtml={html} />;
  if (kind === 'formula') {
    return (
      <CodeBlock code={source} copyLabel={t('copy.formula')} copyTestId="copy-formula">
        <div className={classes.formulaBlock}>
          <Html html={html} />
        </div>
      </CodeBlock>
    );
  }
  return (
    <CodeBlock code={source}>
      <Html html={html} />
    </CodeBlock>
  );
});

/**
 * Sanitized markdown with formulas and diagrams; unchanged blocks keep their DOM while an answer
 * streams in (`streaming`: a diagram is drawn only once its block is complete).
 */
export const MarkdownContent = memo(function MarkdownContent({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // A code grammar or KaTeX arriving re-renders the blocks that waited for it (the others come from the cache).
  const arrivals = useSyncExternalStore(subscribeOnDemand, onDemandArrivals);
  // While the text grows, each render reads only its last block again (renderMarkdown's `previous`).
  const rendered = useRef<{ arrivals: number; markdown: RenderedMarkdown } | null>(null);
  const { blocks } = useMemo(() => {
    const previous = rendered.current?.arrivals === arrivals ? rendered.current.markdown : null;
    const markdown = renderMarkdown(text, { streaming, previous });
    rendered.current = { arrivals, markdown };
    return markdown;
  }, [text, streaming, arrivals]);
  return (
    <Typography className={classes.markdown}>
      {blocks.map((block, index) => (
        <Block key={index} kind={block.kind} html={block.html} source={block.kind === 'text' ? null : block.source} />
      ))}
    </Typography>
  );
});
