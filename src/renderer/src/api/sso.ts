import { ssoApi, type SsoSignUpBody } from '../../../shared/api';
import type { EndpointBody } from '../../../shared/api/endpoint';
import { callEndpoint } from './client';

export const verifySso = (platformId: number, body: EndpointBody<typeof ssoApi.ssoVerify>) => callEndpoint(ssoApi.ssoVerify, { params: { id: platformId }, body });

export const resendSsoCode = (platformId: number, body: EndpointBody<typeof ssoApi.ssoSendCode>) => callEndpoint(ssoApi.ssoSendCode, { params: { id: platformId }, body });

export const ssoSignUp = (body: SsoSignUpBody) => callEndpoint(ssoApi.ssoSignUp, { body });

export const connectSsoAccount = (memberId: number, body: { sso_access_token: string; sso_platform_id: number }) =>
  callEndpoint(ssoApi.connectSsoAccount, { params: { id: memberId }, body });

export const disconnectSsoAccount = (memberId: number) => callEndpoint(ssoApi.disconnectSsoAccount, { params: { id: memberId } });
