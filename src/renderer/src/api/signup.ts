import { useQuery } from '@tanstack/react-query';
import { memberGroupsApi, signupApi } from '../../../shared/api';
import { callEndpoint, resolveServerUrl } from './client';
import { endpointKey } from './endpointHooks';

/** The tenant's policies, a file policy's document resolved on the server (the desktop renderer is not served from there). */
async function loadPolicies() {
  const { items } = await callEndpoint(signupApi.listPolicies);
  return Promise.all(items.map(async (policy) => ({ ...policy, file_url: policy.file_url && (await resolveServerUrl(policy.file_url)) })));
}

/** The policies to agree to before joining (the invitation page), under their endpoint's key with the documents resolved. */
export function usePolicies() {
  return useQuery({ queryKey: endpointKey(signupApi.listPolicies), queryFn: loadPolicies, staleTime: 60_000 });
}

/**
 * Where the sign-up form's five answers are cached together: below the sign-up settings, so a change
 * of them reaches it; the admin screens of the other four (fields, policies) make it stale by name.
 */
export const signupFormKey = [...endpointKey(signupApi.getSignupSettings), 'form'];

/** Everything the sign-up form needs before anyone is signed in (all public). */
export function useSignupForm() {
  return useQuery({
    queryKey: signupFormKey,
    queryFn: async () => {
      const [settings, capacity, groups, fields, policies] = await Promise.all([
        callEndpoint(signupApi.getSignupSettings),
        callEndpoint(signupApi.memberCountCheck),
        callEndpoint(memberGroupsApi.listMemberGroups, { query: { size: 100 } }),
        callEndpoint(signupApi.listCustomFields, { query: { is_signup_field: true } }),
        loadPolicies(),
      ]);
      return { settings, capacity, groups: groups.items, fields: fields.items, policies };
    },
    staleTime: 60_000,
  });
}
