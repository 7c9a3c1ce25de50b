import { useQuery } from '@tanstack/react-query';
import { adminLlmModelsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export function useModelPermissions() {
  return useQuery({ queryKey: queryKeys.modelPermissions, queryFn: () => callEndpoint(adminLlmModelsApi.listAdminLlmModels) });
}

export const setModelPermission = (modelId: number, groupId: number, isAvailable: boolean) =>
  callEndpoint(adminLlmModelsApi.setModelGroupPermission, { params: { modelId, groupId }, body: { is_available: isAvailable } });
