import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminSecurityApi, piiSettingsApi } from '../../../shared/api';
import type { PiiSettings } from '../../../shared/domain/pii';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The tenant's personal-data settings, for the composer's warning (the server decides anyway). */
export function usePiiSettings(enabled = true) {
  return useQuery({
    queryKey: queryKeys.piiSettings,
    queryFn: () => callEndpoint(piiSettingsApi.getPiiSettings),
    staleTime: 60_000,
    enabled,
  });
}

export function useAdminPiiSettings() {
  return useQuery({ queryKey: queryKeys.adminPiiSettings, queryFn: () => callEndpoint(adminSecurityApi.getAdminPiiSettings) });
}

export const savePiiSettings = (settings: Partial<PiiSettings>) => callEndpoint(adminSecurityApi.patchPiiSettings, { body: settings });

export function useRestrictedWords(page: number, size: number, search: string) {
  return useQuery({
    queryKey: queryKeys.restrictedWords(page, size, search),
    queryFn: () => callEndpoint(adminSecurityApi.listRestrictedWords, { query: { page, size, ...(search ? { search_term: search } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

export const addRestrictedWord = (word: string) => callEndpoint(adminSecurityApi.createRestrictedWord, { body: { word } });

export const deleteRestrictedWord = (id: number) => callEndpoint(adminSecurityApi.deleteRestrictedWord, { params: { id } });
