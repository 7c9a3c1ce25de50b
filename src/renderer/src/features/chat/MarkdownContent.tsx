import { memo, useMemo, useSyncExternalStore } from 'react';
import { Typography } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import 'highlight.js/styles/github.css';
import { onDemandArrivals, subscribeOnDemand } from './onDemand';
import { CodeBlock } from '../../components/CopyButton';
import { renderMarkdownBlocks, type MarkdownBlock } from './markdown';
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
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `arrivals` is the reason to render again
  const blocks = useMemo(() => renderMarkdownBlocks(text, { streaming }), [text, streaming, arrivals]);
  return (
    <Typography className={classes.markdown}>
      {blocks.map((block, index) => (
        <Block key={index} kind={block.kind} html={block.html} source={block.kind === 'text' ? null : block.source} />
      ))}
    </Typography>
  );
});
