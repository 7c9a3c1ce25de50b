import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { focusMainContent, MAIN_CONTENT_ID } from './mainContent';
import classes from './SkipLink.module.css';

/**
 * "Skip to content": the first Tab stop of every page, visible only while focused. It moves focus
 * into the main landmark, past the navigation.
 */
export function SkipLink() {
  const { t } = useTranslation('common');
  const skip = (event: MouseEvent) => {
    event.preventDefault(); // no #fragment in the URL: the router owns it
    focusMainContent();
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink} onClick={skip}>
      {t('skip_to_content')}
    </a>
  );
}
