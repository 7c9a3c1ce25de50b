/** Router state of /auth/sign-up after an SSO platform vouched for someone with no account yet. */
export interface SsoSignUpState {
  sso: SsoIdentity;
}
export type SsoIdentity = { token: string; platformId: number; email: string; name: string };
