/** Limits on account fields (spec §9). */
export const EMAIL_MAX_EXCLUSIVE = 255;
export const PASSWORD_MIN = 8;
