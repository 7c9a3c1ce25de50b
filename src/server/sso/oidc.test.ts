import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionRecorder, startConnectionRecorder } from '../../../tests/fixtures/ports';
import { testConfig } from '../config';
import { createOutboundGuard } from '../net/outboundGuard';
import { SsoPlatformUnavailableError } from './identity';
import { createOidcAdapter } from './oidc';

let discovery: Server | undefined;
let internal: ConnectionRecorder | undefined;
afterEach(async () => {
  await new Promise((resolve) => (discovery ? discovery.close(resolve) : resolve(undefined)));
  await internal?.close();
});

describe('OpenID Connect through the outbound guard', () => {
  it('checks every endpoint the discovery document names: a token endpoint on a refused address is never connected to', async () => {
    internal = await startConnectionRecorder();
    const internalPort = internal.port;
    // An issuer the operator allows by name, whose discovery document sends the token request to an internal address.
    discovery = createServer();
    await new Promise<void>((resolve) => discovery!.listen(0, '127.0.0.1', resolve));
    const issuer = `http://localhost:${(discovery.address() as AddressInfo).port}`;
    discovery.on('request', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `http://127.0.0.1:${internalPort}/token`,
          jwks_uri: `http://127.0.0.1:${internalPort}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    });
    const oidc = createOidcAdapter({ outbound: createOutboundGuard({ config: testConfig({ OUTBOUND_ALLOW: ['localhost'] }) }) });
    const settings = { kind: 'oidc' as const, issuer, client_id: 'client', client_secret: 'secret' };
    const redirectUrl = 'http://127.0.0.1:9/callback';

    const authorizationUrl = await oidc.authorizationUrl(settings, { redirectUrl, codeChallenge: 'c'.repeat(43), state: 'state-1' });
    expect(authorizationUrl).toMatch(new RegExp(`^${issuer}/auth\\?`));
    const exchange = oidc.exchange(settings, { redirectUrl, code: 'code-1', codeVerifier: 'v'.repeat(43), state: 'state-1' });
    await expect(exchange).rejects.toBeInstanceOf(SsoPlatformUnavailableError);
    await expect(exchange).rejects.toThrow(/refused/);
    expect(internal.connections()).toBe(0);
  });
});
