import { useTranslation } from 'react-i18next';
import { ComingSoon, PageFrame } from '../../components/PageFrame';
import { IconStudio } from '../../components/icons';

export default function StudioPage() {
  const { t } = useTranslation('dashboard');
  return (
    <PageFrame title={t('studio.title')} description={t('studio.description')}>
      <ComingSoon icon={<IconStudio size={28} />} title={t('coming_soon.title')} description={t('studio.coming_soon')} />
    </PageFrame>
  );
}
