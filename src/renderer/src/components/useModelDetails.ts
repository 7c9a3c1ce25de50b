import { useTranslation } from 'react-i18next';
import type { LlmModel } from '../../../shared/api';
import { useTenant } from '../api/tenant';
import { formatDate } from '../i18n/formatDate';
import { useResolvedLanguage } from '../i18n/useLanguage';

/**
 * A model's details as users see them (spec §2): context limit, cost per 10K input tokens (or that
 * it uses no credits: the unlimited model on a plan that makes it free), release date.
 */
export function useModelDetails(): (model: LlmModel) => string[] {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  const unlimitedIsFree = useTenant().data?.plan.is_low_llm_free ?? false;
  return (model) =>
    [
      t('model.contextLimit', { tokens: new Intl.NumberFormat(language).format(model.context_limit) }),
      model.is_unlimited && unlimitedIsFree
        ? t('model.free')
        : t('model.cost', { credits: new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(model.input_cost_per_10k) }),
      model.release_date ? t('model.released', { date: formatDate(model.release_date, language) }) : null,
    ].filter((detail): detail is string => detail !== null);
}
