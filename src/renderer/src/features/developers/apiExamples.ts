import { SUBDOMAIN_HEADER } from '../../../../shared/domain/http';

export interface ExampleTarget {
  /** `baseURL` of the openai clients, e.g. https://host/api/v1/openai. */
  baseUrl: string;
  /** The chat completions path under it (from the contract), `/chat/completions`. */
  chatPath: string;
  /** The chatbot's model id (its hash id). */
  model: string;
  /** The tenant, sent as `x-subdomain` when the client has one. */
  subdomain: string | null;
  /** Shown in place of the key: the real key is never put into examples. */
  keyPlaceholder: string;
}

export const EXAMPLE_LANGUAGES = ['curl', 'javascript', 'python'] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

const QUESTION = 'Hello! What can you do?';

/** Copyable calls of the OpenAI-compatible API with the real base URL and chatbot, one per language. */
export function apiExample(language: ExampleLanguage, target: ExampleTarget): string {
  const { baseUrl, chatPath, model, subdomain, keyPlaceholder } = target;
  if (language === 'curl') {
    return [
      `curl ${baseUrl}${chatPath} \\`,
      `  -H "Authorization: Bearer ${keyPlaceholder}" \\`,
      ...(subdomain ? [`  -H "${SUBDOMAIN_HEADER}: ${subdomain}" \\`] : []),
      `  -H "Content-Type: application/json" \\`,
      `  -d '${JSON.stringify({ model, messages: [{ role: 'user', content: QUESTION }] })}'`,
    ].join('\n');
  }
  if (language === 'javascript') {
    return [
      `import OpenAI from 'openai';`,
      ``,
      `const client = new OpenAI({`,
      `  apiKey: process.env.CHATBOT_API_KEY, // ${keyPlaceholder}`,
      `  baseURL: '${baseUrl}',`,
      ...(subdomain ? [`  defaultHeaders: { '${SUBDOMAIN_HEADER}': '${subdomain}' },`] : []),
      `});`,
      ``,
      `const stream = await client.chat.completions.create({`,
      `  model: '${model}',`,
      `  messages: [{ role: 'user', content: '${QUESTION}' }],`,
      `  stream: true,`,
      `});`,
      `for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');`,
    ].join('\n');
  }
  return [
    `import os`,
    `from openai import OpenAI`,
    ``,
    `client = OpenAI(`,
    `    api_key=os.environ["CHATBOT_API_KEY"],  # ${keyPlaceholder}`,
    `    base_url="${baseUrl}",`,
    ...(subdomain ? [`    default_headers={"${SUBDOMAIN_HEADER}": "${subdomain}"},`] : []),
    `)`,
    ``,
    `answer = client.chat.completions.create(`,
    `    model="${model}",`,
    `    messages=[{"role": "user", "content": "${QUESTION}"}],`,
    `)`,
    `print(answer.choices[0].message.content)`,
  ].join('\n');
}
