import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminCreditsApi, adminDashboardsApi, type CreditAllocationBody } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export interface AllocationQuery {
  page: number;
  size: number;
  search_term?: string;
}

export function useCreditAllocation(query: AllocationQuery) {
  return useQuery({
    queryKey: queryKeys.creditAllocation(query),
    queryFn: () => callEndpoint(adminCreditsApi.getCreditAllocation, { query }),
    placeholderData: keepPreviousData,
  });
}

export const updateCreditAllocation = (body: CreditAllocationBody) => callEndpoint(adminCreditsApi.updateCreditAllocation, { body });

export function useCreditUsageReport(month: string, groupBy: 'group' | 'member') {
  return useQuery({
    queryKey: queryKeys.creditUsageReport(month, groupBy),
    queryFn: () => callEndpoint(adminCreditsApi.getCreditUsage, { query: { month, group_by: groupBy } }),
    placeholderData: keepPreviousData,
  });
}

export function useCreditPurchases(page: number, size: number) {
  return useQuery({
    queryKey: queryKeys.creditPurchases(page, size),
    queryFn: () => callEndpoint(adminCreditsApi.listCreditPurchases, { query: { page, size } }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminDashboard() {
  return useQuery({ queryKey: queryKeys.adminDashboard, queryFn: () => callEndpoint(adminDashboardsApi.getDashboard, {}) });
}

export function useDashboardUsage(start: string, end: string) {
  return useQuery({
    queryKey: queryKeys.adminDashboardUsage(start, end),
    queryFn: () => callEndpoint(adminDashboardsApi.getDashboardUsage, { query: { start_month: start, end_month: end } }),
    placeholderData: keepPreviousData,
  });
}
