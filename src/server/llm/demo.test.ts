import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDemoProvider } from './demo';

describe('demo language model', () => {
  it('streams a labelled answer quoting the question, token by token, with usage', async () => {
    const result = streamText({ model: createDemoProvider(0).languageModel('demo'), prompt: 'How do I reset my password?' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(20);
    expect(deltas.join('')).toMatch(/^\*\*Demo model\*\* — no LLM is configured/);
    expect(deltas.join('')).toContain('“How do I reset my password?”');
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(deltas.length);
    expect(usage.inputTokens).toBeGreaterThan(0);
  });

  it('answers in the requested language', async () => {
    const result = streamText({
      model: createDemoProvider(0).languageModel('demo'),
      prompt: '안녕',
      providerOptions: { demo: { language: 'ko' } },
    });
    expect(await result.text).toMatch(/^\*\*데모 모델\*\*/);
  });

  it('stops producing tokens as soon as the call is aborted', async () => {
    const abort = new AbortController();
    const result = streamText({ model: createDemoProvider(20).languageModel('demo'), prompt: 'Hi', abortSignal: abort.signal, onError: () => {} });
    const deltas: string[] = [];
    const started = Date.now();
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        deltas.push(part.text);
        if (deltas.length === 3) abort.abort();
      }
    }
    expect(deltas.length).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
