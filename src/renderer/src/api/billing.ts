import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { billingApi } from '../../../shared/api';
import type { ProviderResult } from '../../../shared/api/billing';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export function useBillingPlans() {
  return useQuery({ queryKey: queryKeys.billingPlans, queryFn: () => callEndpoint(billingApi.listBillingPlans) });
}

export function useMembership() {
  return useQuery({ queryKey: queryKeys.membership, queryFn: () => callEndpoint(billingApi.getMembership) });
}

export function usePayments(page: number, size: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.payments(page, size),
    queryFn: () => callEndpoint(billingApi.listPayments, { query: { page, size } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const registerCardAndSubscribe = (planId: number, result: ProviderResult) =>
  callEndpoint(billingApi.registerCardAndSubscribe, { params: { planId }, query: {}, body: result });

export const subscribeToPlan = (planId: number, paymentMethodId?: number) =>
  callEndpoint(billingApi.subscribeToPlan, { params: { planId }, body: paymentMethodId ? { payment_method_id: paymentMethodId } : {} });

export const cancelMembership = () => callEndpoint(billingApi.cancelMembership);
export const resumeMembership = () => callEndpoint(billingApi.resumeMembership);
