import { describe, expect, it } from 'vitest';
import { EXAMPLE_LANGUAGES, apiExample } from './apiExamples';

const target = { baseUrl: 'https://chat.example/api/v1/openai', chatPath: '/chat/completions', model: 'abc123', subdomain: null, keyPlaceholder: 'cbp_live_…' };

describe('API examples', () => {
  it('name the real base URL and chatbot in every language, never a real key', () => {
    for (const language of EXAMPLE_LANGUAGES) {
      const code = apiExample(language, target);
      expect(code, language).toContain('https://chat.example/api/v1/openai');
      expect(code, language).toContain('abc123');
      expect(code, language).not.toContain('x-subdomain');
    }
    expect(apiExample('curl', target)).toContain('curl https://chat.example/api/v1/openai/chat/completions');
    expect(apiExample('javascript', target)).toContain("import OpenAI from 'openai'");
    expect(apiExample('python', target)).toContain('from openai import OpenAI');
  });

  it('send the tenant as x-subdomain when the client has one', () => {
    const withTenant = { ...target, subdomain: 'acme' };
    expect(apiExample('curl', withTenant)).toContain('-H "x-subdomain: acme"');
    expect(apiExample('javascript', withTenant)).toContain("defaultHeaders: { 'x-subdomain': 'acme' }");
    expect(apiExample('python', withTenant)).toContain('default_headers={"x-subdomain": "acme"}');
  });

  it('the curl body is valid JSON', () => {
    const body = /-d '(.*)'$/m.exec(apiExample('curl', target))![1]!;
    expect(JSON.parse(body)).toEqual({ model: 'abc123', messages: [{ role: 'user', content: 'Hello! What can you do?' }] });
  });
});
