import { useTranslation } from 'react-i18next';
import { ComingSoon, PageFrame } from '../../components/PageFrame';
import { IconCode } from '../../components/icons';

export default function DevelopersPage() {
  const { t } = useTranslation('dashboard');
  return (
    <PageFrame title={t('developers.title')} description={t('developers.description')}>
      <ComingSoon icon={<IconCode size={28} />} title={t('coming_soon.title')} description={t('developers.coming_soon')} />
    </PageFrame>
  );
}
