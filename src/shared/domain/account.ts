/** Limits on account fields (spec §9). */
export const NAME_MIN_SIGNUP = 2;
export const NAME_MAX = 100;
export const EMAIL_MAX_EXCLUSIVE = 255;
export const PASSWORD_MIN = 8;
