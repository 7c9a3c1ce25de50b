import { useQuery } from '@tanstack/react-query';
import { adminCustomFieldsApi, adminPoliciesApi, adminTaskModesApi, adminTenantSettingsApi } from '../../../shared/api';
import type { Endpoint, EndpointBody, EndpointResponse } from '../../../shared/api/endpoint';
import { UPLOAD_FIELD } from '../../../shared/api/files';
import type { TenantSettings } from '../../../shared/api';
import { callEndpoint, resolveServerUrl, sendRaw } from './client';
import { queryKeys } from './queryKeys';

/** Admin console "Settings": branding and support, custom fields, policies, task modes (ARCHITECTURE "Tenant settings"). */
/** The logo is on the server (the desktop renderer is not served from there). */
const withResolvedLogo = async (settings: TenantSettings): Promise<TenantSettings> => ({
  ...settings,
  logo_url: settings.logo_url && (await resolveServerUrl(settings.logo_url)),
});

export function useTenantSettings() {
  return useQuery({ queryKey: queryKeys.tenantSettings, queryFn: async () => withResolvedLogo(await callEndpoint(adminTenantSettingsApi.getTenantSettings)) });
}

export const saveTenantSettings = async (body: EndpointBody<typeof adminTenantSettingsApi.updateTenantSettings>) =>
  withResolvedLogo(await callEndpoint(adminTenantSettingsApi.updateTenantSettings, { body }));

/** One file as the multipart body the settings uploads take (the same field as chat files). */
async function uploadOne<E extends Endpoint>(endpoint: E, file: File): Promise<EndpointResponse<E>> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, file, file.name);
  const response = await sendRaw(endpoint, endpoint.path, { body: form });
  return endpoint.response.parse(await response.json()) as EndpointResponse<E>;
}

export const uploadTenantLogo = async (file: File) => withResolvedLogo(await uploadOne(adminTenantSettingsApi.uploadTenantLogo, file));

export const deleteTenantLogo = async () => withResolvedLogo(await callEndpoint(adminTenantSettingsApi.deleteTenantLogo));

export function useAdminCustomFields() {
  return useQuery({ queryKey: queryKeys.adminCustomFields, queryFn: async () => (await callEndpoint(adminCustomFieldsApi.listAdminCustomFields)).items });
}

export const createCustomField = (body: EndpointBody<typeof adminCustomFieldsApi.createCustomField>) => callEndpoint(adminCustomFieldsApi.createCustomField, { body });

export const updateCustomField = (id: number, body: EndpointBody<typeof adminCustomFieldsApi.updateCustomField>) =>
  callEndpoint(adminCustomFieldsApi.updateCustomField, { params: { id }, body });

export const deleteCustomField = (id: number) => callEndpoint(adminCustomFieldsApi.deleteCustomField, { params: { id } });

export function useAdminPolicies() {
  return useQuery({ queryKey: queryKeys.adminPolicies, queryFn: async () => (await callEndpoint(adminPoliciesApi.listAdminPolicies)).items });
}

export const uploadPolicyFile = (file: File) => uploadOne(adminPoliciesApi.uploadPolicyFile, file);

export const createPolicy = (body: EndpointBody<typeof adminPoliciesApi.createPolicy>) => callEndpoint(adminPoliciesApi.createPolicy, { body });

export const updatePolicy = (id: number, body: EndpointBody<typeof adminPoliciesApi.updatePolicy>) => callEndpoint(adminPoliciesApi.updatePolicy, { params: { id }, body });

export const deletePolicy = (id: number) => callEndpoint(adminPoliciesApi.deletePolicy, { params: { id } });

export function useAdminTaskModes() {
  return useQuery({ queryKey: queryKeys.adminTaskModes, queryFn: async () => (await callEndpoint(adminTaskModesApi.listAdminTaskModes)).items });
}

export const createTaskMode = (body: EndpointBody<typeof adminTaskModesApi.createTaskMode>) => callEndpoint(adminTaskModesApi.createTaskMode, { body });

export const updateTaskMode = (id: number, body: EndpointBody<typeof adminTaskModesApi.updateTaskMode>) =>
  callEndpoint(adminTaskModesApi.updateTaskMode, { params: { id }, body });

export const deleteTaskMode = (id: number) => callEndpoint(adminTaskModesApi.deleteTaskMode, { params: { id } });
