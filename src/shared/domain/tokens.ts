/** UTF-8 length of a string without Buffer or TextEncoder (shared code runs everywhere). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Provider-independent token estimate: about 4 bytes of UTF-8 per token, close for English and on
 * the safe side for Korean (one token per 3-byte Hangul syllable).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 4);
}
