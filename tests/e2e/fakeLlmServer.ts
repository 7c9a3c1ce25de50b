import { test as base } from '@playwright/test';
import type { BuiltServer } from '../fixtures/builtServer';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { startOwnServer } from './ownServer';

/**
 * Tests whose answers the test decides: a server of its own (the build `npm run server` made for
 * the suite, on a fresh database) whose demo models run on the loopback fake LLM, which streams
 * what each test tells it to (`llm.fake.setBehaviour`), at the pace it is told. One server per
 * worker, shared by every spec that uses this `test`; each test sets the behaviour it needs.
 */
export const test = base.extend<object, { llm: { fake: FakeLlmUpstream; server: BuiltServer } }>({
  llm: [
    async ({}, provide) => {
      const fake = await startFakeLlmUpstream();
      const { server, stop } = await startOwnServer('fake-llm', {
        LLM_BASE_URL: fake.baseUrl,
        LLM_API_KEY: 'e2e-key',
        LLM_MODEL: 'fake-model',
        OUTBOUND_ALLOW: '127.0.0.0/8,::1',
      });
      await provide({ fake, server });
      await stop();
      await fake.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ llm }, provide) => provide(llm.server.origin),
});

/** `text` in chunks of a few characters, as a model streams it. */
export const chunked = (text: string) => text.match(/[\s\S]{1,6}/g) ?? [];
