import { describe, expect, it } from 'vitest';
import { demoTitle } from './demoTitle';

describe('demo model titles', () => {
  it('leaves out asking and politeness wherever they stand: please, can you, for me, thanks', () => {
    expect(demoTitle('Can you help me plan a trip to Jeju please')).toBe('Plan a trip to Jeju');
    expect(demoTitle('Could you please summarize this article for me?')).toBe('Summarize this article');
    expect(demoTitle('Hey, could you maybe give me some ideas for a birthday party for my son')).toBe('Ideas for a birthday party');
    expect(demoTitle('Make a list of ten good books for me to read please')).toBe('List of ten good books');
    expect(demoTitle('Can you just quickly draft an email to my boss asking for a day off')).toBe('Draft an email to my boss');
    expect(demoTitle('I need a recipe for kimchi stew, thanks')).toBe('Recipe for kimchi stew');
    expect(demoTitle('I am looking for a good laptop for programming')).toBe('Good laptop for programming');
    expect(demoTitle('Can you tell me what the weather is like in Seoul')).toBe('Weather in Seoul');
    expect(demoTitle('Please help')).toBe('Help');
  });

  it('leaves out how the answer should be given', () => {
    expect(demoTitle('Could you kindly explain quantum computing to me in simple terms?')).toBe('Quantum computing');
    expect(demoTitle('Thanks for your help! Now explain closures in JavaScript, with examples')).toBe('Closures in JavaScript');
  });

  it('does the same in Spanish and Korean', () => {
    expect(demoTitle('¿Puedes ayudarme a planear un viaje a Seúl, por favor?')).toBe('Planear un viaje a Seúl');
    expect(demoTitle('Recomiéndame una película para esta noche por favor')).toBe('Película para esta noche');
    expect(demoTitle('혹시 부산 맛집 좀 추천해 줄 수 있어?')).toBe('부산 맛집 추천');
    expect(demoTitle('제주도 3박 4일 여행 계획 좀 짜줘')).toBe('제주도 3박 4일 여행 계획');
    expect(demoTitle('이 문서 요약 부탁해요')).toBe('문서 요약');
  });
});
