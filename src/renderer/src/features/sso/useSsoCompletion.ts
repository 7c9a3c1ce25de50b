import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { authApi, ssoApi, type SsoVerified } from '../../../../shared/api';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey } from '../../api/errorMessages';
import { showToast } from '../../components/toast';
import { getPlatform } from '../../platform';
import type { SsoIntent, SsoReturn } from '../../platform/types';
import { useUserSession } from '../../stores/userSession';
import type { SsoSignUpState } from '../signup/ssoSignUpState';
import type { MessageKey } from '../../i18n/keys';

/** A failed step after verification, already mapped to its message by the endpoint that failed. */
class SsoStepFailure extends Error {
  constructor(readonly key: MessageKey) {
    super(key);
  }
}

/** The message key of any failure of an SSO flow: the step's own, or the verify call's rows. */
export const ssoFailureKey = (error: unknown): MessageKey => (error instanceof SsoStepFailure ? error.key : errorMessageKey(error, ssoApi.ssoVerify));

async function step<T>(endpoint: Parameters<typeof errorMessageKey>[1], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new SsoStepFailure(errorMessageKey(error, endpoint));
  }
}

/**
 * The steps once a platform vouched for the member. `verifyReturn`: the provider's answer becomes a
 * verified identity (`POST /sso-platforms/:id/verify/`). `complete`: connect it to the signed-in
 * account (My page), sign in when an account is connected to it, or go to the sign-up form with it.
 * Each step's failure is said by the flow's screen (ssoFailureKey), never in a toast.
 */
export function useSsoCompletion() {
  const { t } = useTranslation('sso');
  const navigate = useNavigate();
  const member = useUserSession((state) => state.member);
  const setMember = useUserSession((state) => state.setMember);
  const verify = useEndpointMutation(ssoApi.ssoVerify, { errorToast: false });
  const connect = useEndpointMutation(ssoApi.connectSsoAccount, { errorToast: false });
  const signIn = useEndpointMutation(authApi.ssoSignIn, {
    errorToast: false,
    // The platform signs in (web: cookies; desktop: through main, which keeps the tokens).
    send: (body: { code: string; sso_platform_id: number }) => getPlatform().session.ssoSignIn(body),
  });

  async function verifyReturn(answer: SsoReturn): Promise<SsoVerified> {
    if ('error' in answer.callback) throw new Error(answer.callback.error);
    const verified = await verify.mutateAsync({ params: { id: answer.platformId }, body: answer.callback });
    if (verified.step !== 'verified') throw new Error('The provider step did not verify the identity');
    return verified;
  }

  async function complete(platformId: number, intent: SsoIntent, identity: SsoVerified): Promise<void> {
    if (intent === 'connect') {
      if (!member) throw new Error('Connecting needs a signed-in member');
      const body = { sso_access_token: identity.sso_access_token, sso_platform_id: platformId };
      setMember(await step(ssoApi.connectSsoAccount, () => connect.mutateAsync({ params: { id: member.id }, body })));
      showToast('success', t('connected'));
      void navigate('/dashboard/my-page', { replace: true });
      return;
    }
    if (identity.registered) {
      setMember(await step(authApi.ssoSignIn, () => signIn.mutateAsync({ code: identity.sso_access_token, sso_platform_id: platformId })));
      void navigate('/dashboard/chat', { replace: true });
      return;
    }
    const state: SsoSignUpState = { sso: { token: identity.sso_access_token, platformId, email: identity.email, name: identity.name } };
    void navigate('/auth/sign-up', { state, replace: true });
  }

  return { verifyReturn, complete };
}
