/** Limits on account fields (spec §9). */
export const EMAIL_MAX_EXCLUSIVE = 255;
export const PASSWORD_MIN = 8;
/** The highest minimum password length a tenant may require (the console's setting; 8 up to this). */
export const PASSWORD_MIN_LENGTH_MAX = 64;
