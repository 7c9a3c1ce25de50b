import { generateImage, generateText, streamText } from 'ai';
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

  it('stops at the call’s output limit with finish reason length', async () => {
    const result = streamText({ model: createDemoProvider(0).languageModel('demo'), prompt: 'How do I reset my password?', maxOutputTokens: 3 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toHaveLength(3);
    expect(await result.finishReason).toBe('length');
    expect((await result.usage).outputTokens).toBe(3);
  });

  it('answers in the requested language', async () => {
    const result = streamText({
      model: createDemoProvider(0).languageModel('demo'),
      prompt: '안녕',
      providerOptions: { demo: { language: 'ko' } },
    });
    expect(await result.text).toMatch(/^\*\*데모 모델\*\*/);
  });

  it('titles a session with the words of the first question: the clause that says the most, whole words, without the asking', async () => {
    const title = async (question: string) =>
      (
        await generateText({
          model: createDemoProvider(0).languageModel('demo'),
          prompt: `User: ${question}\n\nAssistant: a long answer`,
          providerOptions: { demo: { language: 'en', task: 'title' } },
        })
      ).text;
    expect(await title('How do I bake sourdough bread at home?')).toBe('Bake sourdough bread at home');
    expect(await title('Hello! Plan a weekend trip to Busan with my family, please')).toBe('Plan a weekend trip to Busan');
    expect(await title('Please explain, step by step and in plain words, how a streamed answer travels from the model through the server')).toBe(
      'Streamed answer travels from the model',
    );
    expect(await title('Please summarise both files for me, step by step and in plain words')).toBe('Summarise both files');
    expect(await title('Hello from the end-to-end test')).toBe('End-to-end test');
    expect(await title('부산 여행 일정 추천해 주세요!')).toBe('부산 여행 일정 추천');
    expect(await title('부산에서 가족과 주말 여행 계획을 세워 주세요')).toBe('부산에서 가족과 주말 여행 계획');
    expect(await title('東京で一番おいしいラーメン屋はどこですか？')).toBe('東京で一番おいしいラーメン屋はどこ');
    expect(await title('请帮我写一份上海旅游计划')).toBe('写一份上海旅游计划');
    expect(await title('¿Qué ver en Madrid en tres días?')).toBe('Ver en Madrid en tres días');
    // Never cut inside a word, and short enough for the list (40 characters).
    expect(await title('Internationalization considerations for multilingual documentation websites')).toBe('Internationalization considerations');
  });

  it('quotes the member’s words with their Markdown characters escaped, so a masked number shows as written', async () => {
    const result = streamText({ model: createDemoProvider(0).languageModel('demo'), prompt: 'Call ***-****-**** or _me_ at `home`' });
    expect(await result.text).toContain('You wrote: “Call \\*\\*\\*-\\*\\*\\*\\*-\\*\\*\\*\\* or \\_me\\_ at \\`home\\`”');
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

  it('reasons before answering when a reasoning effort is asked for (thinking mode), and only then', async () => {
    const model = createDemoProvider(0).languageModel('demo');
    const thinking = streamText({ model, prompt: 'Plan', reasoning: 'medium', providerOptions: { demo: { language: 'es' } } });
    const order: string[] = [];
    for await (const part of thinking.fullStream) if (part.type === 'reasoning-delta' || part.type === 'text-delta') order.push(part.type);
    expect(order[0]).toBe('reasoning-delta');
    expect(order.lastIndexOf('reasoning-delta')).toBeLessThan(order.indexOf('text-delta'));
    expect(await thinking.reasoningText).toMatch(/^Razonamiento de demostración/);

    const plain = streamText({ model, prompt: 'Plan' });
    expect(await plain.reasoningText).toBeUndefined();
  });

  it('draws a PNG image at the requested size', async () => {
    const { image } = await generateImage({ model: createDemoProvider(0).imageModel('demo-image'), prompt: 'a fox', size: '1536x1024' });
    const png = Buffer.from(image.uint8Array);
    expect(image.mediaType).toBe('image/png');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1536, 1024]);
  });
});
