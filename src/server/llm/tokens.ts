/**
 * A provider-independent token estimate, used before a call (context limit, credit reservation)
 * and when a stream ends without reported usage. About 4 bytes of UTF-8 per token: close for
 * English, and one token per Hangul syllable (3 bytes) errs on the safe side for Korean.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}
