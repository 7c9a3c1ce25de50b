import { useQuery } from '@tanstack/react-query';
import { memberGroupsApi, signupApi, type SignUpBody } from '../../../shared/api';
import type { Language } from '../../../shared/api/common';
import type { VerificationMethod } from '../../../shared/domain/signup';
import { callEndpoint, resolveServerUrl } from './client';
import { queryKeys } from './queryKeys';

/** The tenant's policies, a file policy's document resolved on the server (the desktop renderer is not served from there). */
async function loadPolicies() {
  const { items } = await callEndpoint(signupApi.listPolicies);
  return Promise.all(items.map(async (policy) => ({ ...policy, file_url: policy.file_url && (await resolveServerUrl(policy.file_url)) })));
}

/** The policies to agree to before joining (the invitation page). */
export function usePolicies() {
  return useQuery({ queryKey: queryKeys.policies, queryFn: loadPolicies, staleTime: 60_000 });
}

/** Everything the sign-up form needs before anyone is signed in (all public). */
export function useSignupForm() {
  return useQuery({
    queryKey: queryKeys.signupForm,
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

export const sendSignupCode = (body: { email: string; language: Language; method: VerificationMethod; phone?: string }) => callEndpoint(signupApi.sendCode, { body });

export const signUp = (body: SignUpBody) => callEndpoint(signupApi.signUp, { body });
