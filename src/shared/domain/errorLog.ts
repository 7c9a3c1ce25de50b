/** Longest text kept per field of a client error report (spec §9). */
export const ERROR_LOG_FIELD_MAX = 2900;
