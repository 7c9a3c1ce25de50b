/** Who an SSO platform says the user is: its stable subject id, and what it knows of them. */
export interface SsoIdentity {
  /** The platform's stable id of the user (OIDC `sub`, the directory entry's DN). */
  subject: string;
  email: string;
  name: string;
  /** E.164 phone from the directory, when it holds one (SMS codes). */
  phone?: string;
}

/** The platform could not be reached or answered nonsense: the member can only try again later. */
export class SsoPlatformUnavailableError extends Error {}
/** The platform refused the user's credentials or the authorization code. */
export class SsoRejectedError extends Error {}
