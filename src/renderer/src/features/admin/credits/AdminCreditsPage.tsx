import { QueryError } from '../../../components/QueryError';
import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { adminCreditsApi } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { keepPreviousData } from '@tanstack/react-query';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { useListState } from '../../../components/list/useListState';
import { CreditEntriesTable } from '../../../components/CreditEntriesTable';
import { AdminPageFrame } from '../AdminPageFrame';
import { AllocationTab } from './AllocationTab';
import { UsageTab } from './UsageTab';

const TABS = ['allocation', 'usage', 'purchases'] as const;
type Tab = (typeof TABS)[number];

/** Tab 3: the credit purchase history (spec §7): amount, date, validity, price. */
function PurchasesTab() {
  const { t } = useTranslation('adminCredits');
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const purchases = useEndpointQuery(
    adminCreditsApi.listCreditPurchases,
    { query: { page: listState.page, size: listState.size } },
    { placeholderData: keepPreviousData },
  );
  if (purchases.isError) return <QueryError query={purchases} endpoint={adminCreditsApi.listCreditPurchases} />;
  return <CreditEntriesTable data={purchases.data} isLoading={purchases.isLoading} list={listState} showPrice caption={t('tabs.purchases')} />;
}

/** Route /admin/credits: allocation, usage and purchase history as tabs, the tab in the URL. */
export default function AdminCreditsPage() {
  const { t } = useTranslation('adminCredits');
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'allocation';
  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      {/* A tab starts at its first page: the lists' page and search are not shared between tabs. */}
      <Tabs value={tab} onChange={(value) => value && setSearchParams({ tab: value })} keepMounted={false}>
        <Tabs.List mb="lg">
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="allocation">
          <AllocationTab />
        </Tabs.Panel>
        <Tabs.Panel value="usage">
          <UsageTab />
        </Tabs.Panel>
        <Tabs.Panel value="purchases">
          <PurchasesTab />
        </Tabs.Panel>
      </Tabs>
    </AdminPageFrame>
  );
}
