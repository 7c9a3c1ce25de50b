import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageFrame } from '../AdminPageFrame';
import { BrandingCard } from './BrandingCard';
import { PasswordRulesCard } from './PasswordRulesCard';
import { CustomFieldsCard } from './CustomFieldsCard';
import { PoliciesCard } from './PoliciesCard';
import { TaskModesCard } from './TaskModesCard';

/** Admin console "Settings": what the sign-in and sign-up pages show, and the chat's task modes (docs/ARCHITECTURE.md "Tenant settings"). */
export default function TenantSettingsPage() {
  const { t } = useTranslation('tenantSettings');
  return (
    <AdminPageFrame title={t('page.title')} description={t('page.description')} maw={960}>
      <Stack gap="lg">
        <BrandingCard />
        <PasswordRulesCard />
        <CustomFieldsCard />
        <PoliciesCard />
        <TaskModesCard />
      </Stack>
    </AdminPageFrame>
  );
}
