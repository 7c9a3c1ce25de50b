/** RFC 5987 `value-chars`: what `encodeURIComponent` leaves alone, less `'()*!`, which the value may not hold. */
const rfc5987 = (name: string) => encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A download's Content-Disposition: `filename*` carries the real name (Korean included, RFC 5987),
 * the plain `filename` an ASCII stand-in for old clients.
 */
export function contentDisposition(name: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}
