import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionRecorder, startConnectionRecorder } from '../../../tests/fixtures/ports';
import { testConfig } from '../config';
import { createOutboundGuard, OutboundRefusedError, outboundRefusalOf, outboundAllowEntryProblem } from './outboundGuard';

/** The guard of a server whose OUTBOUND_ALLOW lists `allow`. */
const guardAllowing = (allow: string[] = []) => createOutboundGuard({ config: testConfig({ OUTBOUND_ALLOW: allow }) });

const servers: Server[] = [];
const recorders: ConnectionRecorder[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(recorders.splice(0).map((recorder) => recorder.close()));
});

async function recordingListener() {
  const recorder = await startConnectionRecorder();
  recorders.push(recorder);
  return recorder;
}

/** Every spelling of "this machine", its networks and the reserved ranges that an admin could type. */
const REFUSED_URLS = [
  'http://127.0.0.1:39123/internal?secret=1',
  'https://localhost:8443/',
  'https://LOCALHOST./',
  'https://127.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://017700000001/',
  'https://127.255.255.254/',
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::127.0.0.1]/',
  'https://[64:ff9b::127.0.0.1]/',
  'https://[2002:7f00:1::]/',
  'https://0.0.0.0/',
  'https://0/',
  'https://[::]/',
  'https://10.1.2.3/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://[::ffff:169.254.169.254]/',
  'https://[fe80::1]/',
  'https://[fd12:3456::1]/',
  'https://[fec0::1]/',
  'https://224.0.0.1/',
  'https://[ff02::1]/',
  'https://255.255.255.255/',
  'ldap://127.0.0.1:389',
  'ldap://169.254.169.254:80',
  'ldap://2130706433',
  'ldap://127.1',
  'ldap://0x7f.1',
  'ldap://localhost',
  'ldap://LocalHost:389',
  'ldaps://[::1]:636',
  'ldaps://[::ffff:10.0.0.1]',
];

describe('outbound guard: addresses', () => {
  it.each(REFUSED_URLS)('refuses %s', async (url) => {
    expect(await guardAllowing().destinationProblem(url)).toMatch(/may not connect/);
  });

  it.each(['https://93.184.216.34/', 'https://[2606:4700:4700::1111]/', 'ldaps://8.8.8.8', 'https://172.32.0.1/', 'https://[::ffff:8.8.8.8]/'])(
    'accepts the public address %s',
    async (url) => {
      expect(await guardAllowing().destinationProblem(url)).toBeNull();
    },
  );

  it('lets through exactly what the operator allows: ranges (IPv4-mapped forms included) and host names', async () => {
    const guard = guardAllowing(['127.0.0.0/8', 'fd00::/8', 'idp.corp.example', '10.9.8.7']);
    for (const url of [
      'http://127.0.0.1:4000/',
      'https://127.1/',
      'https://[::ffff:127.0.0.1]/',
      'ldap://127.0.0.1:389',
      'https://[fd00::5]/',
      'https://10.9.8.7/',
      'https://IDP.corp.example/',
    ]) {
      expect(await guard.destinationProblem(url), url).toBeNull();
    }
    for (const url of ['https://[::1]/', 'https://10.9.8.6/', 'https://169.254.169.254/', 'https://[fe80::1]/']) {
      expect(await guard.destinationProblem(url), url).toMatch(/may not connect/);
    }
  });

  it('reads OUTBOUND_ALLOW entries: host names, addresses and CIDR ranges only', () => {
    for (const entry of ['idp.corp.example', 'localhost', '10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', '[::1]'])
      expect(outboundAllowEntryProblem(entry), entry).toBeNull();
    for (const entry of ['http://idp.example', '10.0.0.0/33', '::/129', 'idp.example/8', '10.0.0.0/8/1', 'a b', '-bad-.example'])
      expect(outboundAllowEntryProblem(entry), entry).not.toBeNull();
  });
});

describe('outbound guard: at connect time', () => {
  it('refuses a socket to loopback in any spelling before any connection is made', async () => {
    const listener = await recordingListener();
    const guard = guardAllowing();
    expect(() => guard.connect(listener.port, '127.0.0.1')).toThrow(OutboundRefusedError);
    expect(() => guard.connect(listener.port, '::ffff:127.0.0.1')).toThrow(OutboundRefusedError);
    expect(() => guard.connectTls(listener.port, '127.0.0.1')).toThrow(OutboundRefusedError);
    // Names (and the short and decimal forms the resolver reads as addresses) are checked once resolved, for this connection.
    for (const host of ['localhost', '127.1', '2130706433']) {
      const failed = await new Promise<Error>((resolve) => guard.connect(listener.port, host).once('error', resolve));
      expect(failed, host).toBeInstanceOf(OutboundRefusedError);
    }
    const tls = await new Promise<Error>((resolve) => guard.connectTls(listener.port, 'localhost').once('error', resolve));
    expect(tls).toBeInstanceOf(OutboundRefusedError);
    expect(listener.connections()).toBe(0);
  });

  it('refuses a fetch to loopback, by address or by name, without connecting', async () => {
    const listener = await recordingListener();
    const guard = guardAllowing();
    for (const url of [
      `http://127.0.0.1:${listener.port}/`,
      `http://127.1:${listener.port}/`,
      `http://[::ffff:7f00:1]:${listener.port}/`,
      `http://localhost:${listener.port}/`,
    ]) {
      const error = await guard.fetch(url, { method: 'POST', body: 'secret=1' }).catch((caught: unknown) => caught);
      expect(outboundRefusalOf(error), url).toBeInstanceOf(OutboundRefusedError);
    }
    expect(listener.connections()).toBe(0);
  });

  it('fetches an allowed destination like fetch: status, headers, body both ways, no redirect followed', async () => {
    const server = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url === '/moved') return void response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
        response
          .writeHead(201, { 'content-type': 'application/json', 'x-seen': String(request.headers['content-type']) })
          .end(JSON.stringify({ method: request.method, body }));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://localhost:${(server.address() as AddressInfo).port}`;
    const guard = guardAllowing(['127.0.0.0/8', '::1']);

    const answer = await guard.fetch(`${base}/token`, { method: 'POST', body: new URLSearchParams({ code: 'abc' }) });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-seen')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(await answer.json()).toEqual({ method: 'POST', body: 'code=abc' });
    const moved = await guard.fetch(`${base}/moved`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([302, 'http://169.254.169.254/']);
  });
});
