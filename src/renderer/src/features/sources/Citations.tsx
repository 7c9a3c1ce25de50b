import { useId, useState } from 'react';
import { Anchor, Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Citation } from '../../../../shared/api';
import classes from './sources.module.css';

type DocumentCitation = Extract<Citation, { kind: 'document' }>;
type WebCitation = Extract<Citation, { kind: 'web' }>;

/** Only web pages become links: a citation from a model could carry any scheme. */
const webUrl = (url: string) => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
};

function DocumentSource({ citation, number }: { citation: DocumentCitation; number: number }) {
  const { t } = useTranslation('sources');
  const [open, setOpen] = useState(false);
  const passageId = useId();
  const where = [citation.page !== undefined ? t('citations.page', { page: citation.page }) : null, citation.section].filter(Boolean).join(' · ');
  return (
    <li className={classes.source} data-testid="citation-document">
      <span className={classes.number}>[{number}]</span>
      <span>{citation.name}</span>
      {where && <span className={classes.host}>{where}</span>}{' '}
      <Anchor component="button" type="button" size="xs" aria-expanded={open} aria-controls={passageId} onClick={() => setOpen(!open)}>
        {open ? t('citations.hidePassage') : t('citations.showPassage')}
      </Anchor>
      {open && (
        <Text id={passageId} component="blockquote" size="xs" className={classes.passage}>
          {citation.snippet}
        </Text>
      )}
    </li>
  );
}

function WebSource({ citation, number }: { citation: WebCitation; number: number }) {
  const url = webUrl(citation.url);
  const title = citation.title || citation.url;
  return (
    <li className={classes.source} data-testid="citation-web">
      <span className={classes.number}>[{number}]</span>
      {url ? (
        <Anchor href={url.href} target="_blank" rel="noopener noreferrer" size="xs">
          {title}
        </Anchor>
      ) : (
        <span>{title}</span>
      )}
      {url && <span className={classes.host}>{url.hostname}</span>}
      {citation.snippet && (
        <Text size="xs" lineClamp={2}>
          {citation.snippet}
        </Text>
      )}
    </li>
  );
}

/** The sources of an answer under it, numbered as the model was told to cite them: document passages (expandable) and web pages. */
export function Citations({ citations }: { citations: Citation[] }) {
  const { t } = useTranslation('sources');
  const headingId = useId();
  if (citations.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={headingId} mt="xs" data-testid="citations">
      <Text id={headingId} size="xs" fw={600} mb={4}>
        {t('citations.heading')}
      </Text>
      <ol className={classes.list}>
        {citations.map((citation, index) =>
          citation.kind === 'web' ? (
            <WebSource key={index} citation={citation} number={index + 1} />
          ) : (
            <DocumentSource key={index} citation={citation} number={index + 1} />
          ),
        )}
      </ol>
    </Box>
  );
}
