import { useTranslation } from 'react-i18next';
import { ComingSoon, PageFrame } from '../../components/PageFrame';
import { IconStore } from '../../components/icons';

export default function StorePage() {
  const { t } = useTranslation('dashboard');
  return (
    <PageFrame title={t('store.title')} description={t('store.description')}>
      <ComingSoon icon={<IconStore size={28} />} title={t('coming_soon.title')} description={t('store.coming_soon')} />
    </PageFrame>
  );
}
