import { dynamicTool, jsonSchema, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDemoProvider } from './demo';
import { asksTime, conversionAsked, timeZoneAsked } from './demoTools';

describe('the demo model with tools', () => {
  it('knows a question for the time in the five languages, and the city it names', () => {
    for (const question of [
      'What time is it in Seoul?',
      "what's the time?",
      '지금 몇 시야?',
      '서울은 지금 몇시예요',
      '今何時ですか',
      '现在几点',
      '¿Qué hora es en Madrid?',
    ]) {
      expect(asksTime(question), question).toBe(true);
    }
    expect(asksTime('Tell me about time travel')).toBe(false);
    expect(asksTime('How do I spend more time in nature?')).toBe(false);
    expect(asksTime('Tell me the time in Paris')).toBe(true);
    expect(timeZoneAsked('지금 서울 몇 시')).toBe('Asia/Seoul');
    expect(timeZoneAsked('¿Qué hora es en Nueva York?')).toBe('America/New_York');
    expect(timeZoneAsked('What time is it?')).toBe('UTC');
  });

  it('reads a conversion: value, unit and the unit asked for, past a preposition that is also a unit', () => {
    expect(conversionAsked('convert 10 km to miles')).toEqual({ value: 10, from: 'km', to: 'mi' });
    expect(conversionAsked('10 km in mi')).toEqual({ value: 10, from: 'km', to: 'mi' });
    expect(conversionAsked('72 F in C please')).toEqual({ value: 72, from: 'F', to: 'C' });
    expect(conversionAsked('10킬로미터를 마일로 바꿔 줘')).toEqual({ value: 10, from: 'km', to: 'mi' });
    expect(conversionAsked('I have 3 apples')).toBeNull();
  });

  it('calls the tool when offered it, then answers quoting the result in the member’s language; without tools it answers as before', async () => {
    const calls: unknown[] = [];
    const tools = {
      current_time: dynamicTool({
        description: 'time',
        inputSchema: jsonSchema({ type: 'object', properties: { time_zone: { type: 'string' } } }),
        execute: async (input) => {
          calls.push(input);
          return '2026-11-26 19:04:05 (Asia/Seoul, GMT+9)';
        },
      }),
    };
    const model = createDemoProvider(0).languageModel('demo');
    const result = streamText({ model, prompt: '지금 서울 몇 시야?', tools, stopWhen: stepCountIs(3), providerOptions: { demo: { language: 'ko' } } });
    const text = await result.text;
    expect(calls).toEqual([{ time_zone: 'Asia/Seoul' }]);
    expect(text).toMatch(/^\*\*데모 모델\*\* — 도구 `current_time`/);
    expect(text).toContain('2026-11-26 19:04:05 (Asia/Seoul, GMT+9)');
    expect((await result.steps).length).toBe(2);

    const plain = streamText({ model, prompt: 'What time is it?' });
    expect(await plain.text).toMatch(/^\*\*Demo model\*\* — no LLM is configured/);
  });
});
