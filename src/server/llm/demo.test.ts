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

  it('writes a short session title in the requested language from the question of the title prompt', async () => {
    const title = async (language: string, question: string) =>
      (
        await generateText({
          model: createDemoProvider(0).languageModel('demo'),
          prompt: `User: ${question}\n\nAssistant: a long answer`,
          providerOptions: { demo: { language, task: 'title' } },
        })
      ).text;
    expect(await title('en', 'How do I bake sourdough bread at home?')).toBe('Chat about How do I bake sourdough');
    expect(await title('ko', '부산 여행 일정 추천해 주세요!')).toBe('부산 여행 일정 추천해 주세요에 대한 대화');
    expect(await title('ja', '東京で一番おいしいラーメン屋はどこですか？')).toBe('東京で一番おいしいラーメン屋はどこですかについての会話');
    expect(await title('es', '¿Qué ver en Madrid?')).toBe('Conversación sobre ¿Qué ver en Madrid');
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
