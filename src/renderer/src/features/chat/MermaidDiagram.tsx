import { useEffect, useSyncExternalStore } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CodeBlock, CopyButton } from '../../components/CopyButton';
import { diagramState, diagramTitle, drawDiagram, subscribeDiagrams } from './diagram';
import classes from './chat.module.css';

/**
 * A Mermaid block of an answer: its source as a code block while Mermaid draws it (and, with a short
 * note, when it cannot), then the sanitized SVG as one image named after the diagram's title, with
 * a button that copies the source and the source itself behind a disclosure.
 */
export function MermaidDiagram({ source, codeHtml }: { source: string; codeHtml: string }) {
  const { t } = useTranslation(['chat', 'sharing']);
  useEffect(() => drawDiagram(source), [source]);
  const state = useSyncExternalStore(subscribeDiagrams, () => diagramState(source));

  if (state.status !== 'drawn') {
    return (
      <div>
        <CodeBlock code={source}>
          <div className={classes.markdownBlock} dangerouslySetInnerHTML={{ __html: codeHtml }} />
        </CodeBlock>
        {state.status === 'failed' && (
          <Text size="xs" c="dimmed" mt={4} data-testid="diagram-fallback">
            {t(state.reason === 'too_large' ? 'chat:diagram.tooLarge' : 'chat:diagram.failed')}
          </Text>
        )}
      </div>
    );
  }
  return (
    <div className={classes.diagram} data-testid="diagram">
      <div
        className={classes.diagramImage}
        role="img"
        aria-label={t('chat:diagram.label', { title: diagramTitle(source) })}
        dangerouslySetInnerHTML={{ __html: state.svg }}
      />
      <div className={classes.diagramFooter}>
        <details className={classes.diagramSource}>
          <summary>{t('chat:diagram.source')}</summary>
          <pre tabIndex={0}>
            <code>{source}</code>
          </pre>
        </details>
        <CopyButton text={source} label={t('sharing:copy.diagram')} testId="copy-diagram" />
      </div>
    </div>
  );
}
