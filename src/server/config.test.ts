import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: '.data/pglite',
      DEFAULT_TENANT: 'demo',
      SEED_DEMO: true,
      ACCESS_TOKEN_TTL_SECONDS: 900,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.LLM_BASE_URL).toBeUndefined();
  });

  it('parses numbers, flags and URLs from text', () => {
    const config = loadConfig({
      PORT: '8080',
      SEED_DEMO: 'false',
      DATABASE_URL: 'postgres://app:app@db:5432/app',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_MODEL: 'llama3',
      LLM_API_KEY: '',
      REDIS_URL: 'rediss://cache.internal:6380/0',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      SEED_DEMO: false,
      DATABASE_URL: 'postgres://app:app@db:5432/app',
      LLM_MODEL: 'llama3',
      REDIS_URL: 'rediss://cache.internal:6380/0',
    });
    expect(config.LLM_API_KEY).toBeUndefined();
  });

  it('lists every invalid variable in one readable error', () => {
    const load = () => loadConfig({ PORT: 'abc', SEED_DEMO: 'maybe', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://cache:6379', ERROR_LOG_RATE_LIMIT: '0' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*SEED_DEMO[\s\S]*ERROR_LOG_RATE_LIMIT[\s\S]*REDIS_URL/);
  });

  it('reads OUTBOUND_ALLOW as a list of hosts, addresses and ranges, nothing allowed by default', () => {
    expect(loadConfig({}).OUTBOUND_ALLOW).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW: ' idp.corp.example, 10.0.0.0/8,,::1 ' }).OUTBOUND_ALLOW).toEqual(['idp.corp.example', '10.0.0.0/8', '::1']);
    expect(() => loadConfig({ OUTBOUND_ALLOW: 'https://idp.corp.example' })).toThrow(/OUTBOUND_ALLOW/);
    expect(() => loadConfig({ OUTBOUND_ALLOW: '10.0.0.0/40' })).toThrow(/OUTBOUND_ALLOW/);
  });

  it('requires LLM_MODEL when an LLM provider is configured', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1234/v1' })).toThrow(/LLM_MODEL/);
  });

  it('takes SMTP and S3 settings and rejects unusable ones', () => {
    const config = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.test:465', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'true' });
    expect(config).toMatchObject({ SMTP_URL: 'smtps://u:p@mail.example.test:465', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: true });
    expect(loadConfig({}).FILES_DIR).toBe('.data/files');
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.test' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ S3_ACCESS_KEY_ID: 'key-only' })).toThrow(/S3_SECRET_ACCESS_KEY/);
  });

  it('takes the shutdown deadline and the chat answer leases, refusing a lease a missed renewal would lose or jobs outliving the deadline', () => {
    expect(loadConfig({})).toMatchObject({
      SHUTDOWN_TIMEOUT_SECONDS: 20,
      JOB_SHUTDOWN_TIMEOUT_SECONDS: 10,
      STREAM_FLUSH_SECONDS: 2,
      STREAM_LEASE_SECONDS: 15,
      STREAM_SWEEP_SECONDS: 10,
    });
    expect(
      loadConfig({ STREAM_FLUSH_SECONDS: '0.2', STREAM_LEASE_SECONDS: '1', SHUTDOWN_TIMEOUT_SECONDS: '2', JOB_SHUTDOWN_TIMEOUT_SECONDS: '1' }),
    ).toMatchObject({ STREAM_FLUSH_SECONDS: 0.2, STREAM_LEASE_SECONDS: 1 });
    expect(() => loadConfig({ STREAM_FLUSH_SECONDS: '5', STREAM_LEASE_SECONDS: '10' })).toThrow(/STREAM_LEASE_SECONDS/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '5' })).toThrow(/JOB_SHUTDOWN_TIMEOUT_SECONDS/);
  });

  it('takes chat file limits and refuses an unknown file kind', () => {
    expect(loadConfig({ FILE_MAX_MB: '5', FILE_ALLOWED_KINDS: 'pdf, text' })).toMatchObject({ FILE_MAX_MB: 5, FILE_ALLOWED_KINDS: 'pdf, text' });
    expect(() => loadConfig({ FILE_ALLOWED_KINDS: 'pdf,exe' })).toThrow(/FILE_ALLOWED_KINDS/);
  });

  it('takes PortOne as all three of API secret, store id and channel key, and frame sources only as origins', () => {
    const portone = { PORTONE_API_SECRET: 'secret', PORTONE_STORE_ID: 'store-1', PORTONE_CHANNEL_KEY: 'channel-1' };
    expect(loadConfig(portone)).toMatchObject({ ...portone, PORTONE_SDK_URL: 'https://cdn.portone.io/v2/browser-sdk.js' });
    expect(() => loadConfig({ PORTONE_API_SECRET: 'secret', PORTONE_STORE_ID: 'store-1' })).toThrow(/PORTONE_CHANNEL_KEY/);
    expect(loadConfig({ PORTONE_FRAME_SOURCES: 'https://*.inicis.com, https://pay.example.test:8443' }).PORTONE_FRAME_SOURCES).toEqual([
      'https://*.inicis.com',
      'https://pay.example.test:8443',
    ]);
    // Anything but an origin could smuggle another directive or a keyword into the CSP.
    expect(() => loadConfig({ PORTONE_FRAME_SOURCES: "https://a.test; script-src 'unsafe-inline'" })).toThrow(/PORTONE_FRAME_SOURCES/);
    expect(() => loadConfig({ PORTONE_FRAME_SOURCES: '*' })).toThrow(/PORTONE_FRAME_SOURCES/);
  });
});
