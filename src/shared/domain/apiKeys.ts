/** Developers: API keys and the OpenAI-compatible API (docs/decisions/0058-api-keys-and-openai-api.md). */

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'cbp_live_';
/** Characters of the secret part kept visible after the prefix, to tell keys apart in the list. */
export const API_KEY_VISIBLE_CHARS = 6;
export const API_KEY_NAME_MAX = 100;
/** Chatbots one key may call. */
export const API_KEY_CHATBOTS_MAX = 50;
export const API_KEYS_PAGE_SIZE = 10;
/** Where the OpenAI-compatible API lives under the API prefix: `baseURL` of the `openai` clients is `<origin>/api/v1/openai`. */
export const OPENAI_COMPATIBLE_PATH = '/openai';
/** Shown by `GET …/models` as `owned_by`. */
export const OPENAI_MODEL_OWNER = 'chatbot-platform';
