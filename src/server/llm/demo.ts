import { setTimeout as sleep } from 'node:timers/promises';
import {
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4Usage,
  NoSuchModelError,
  type ProviderV4,
} from '@ai-sdk/provider';
import { isSupportedLanguage, type SupportedLanguage } from '../../shared/domain/language';
import { estimateTokens } from '../../shared/domain/tokens';

const EXCERPT_MAX = 120;

/** The labelled answer of the offline demo model, in the member's language. */
const ANSWERS: Record<SupportedLanguage, (excerpt: string) => string> = {
  en: (excerpt) =>
    `**Demo model** — no LLM is configured on this server, so this answer comes from the built-in demo provider.\n\n` +
    `You wrote: “${excerpt}”\n\n` +
    `It streams token by token at the pace of a real model. To connect a real model, set \`LLM_BASE_URL\`, ` +
    `\`LLM_API_KEY\` and \`LLM_MODEL\` (any OpenAI-compatible API) and restart the server.`,
  ko: (excerpt) =>
    `**데모 모델** — 이 서버에는 LLM이 설정되어 있지 않아 내장 데모 제공자가 답변합니다.\n\n` +
    `입력하신 내용: “${excerpt}”\n\n` +
    `실제 모델과 같은 속도로 토큰 단위 스트리밍을 합니다. 실제 모델을 연결하려면 \`LLM_BASE_URL\`, ` +
    `\`LLM_API_KEY\`, \`LLM_MODEL\`(OpenAI 호환 API)을 설정하고 서버를 다시 시작하세요.`,
  zh: (excerpt) =>
    `**演示模型** — 此服务器未配置 LLM，因此本回答来自内置的演示提供方。\n\n` +
    `您输入的内容：“${excerpt}”\n\n` +
    `它会像真实模型一样逐个 token 流式输出。要连接真实模型，请设置 \`LLM_BASE_URL\`、` +
    `\`LLM_API_KEY\` 和 \`LLM_MODEL\`（任何兼容 OpenAI 的 API）并重启服务器。`,
  ja: (excerpt) =>
    `**デモモデル** — このサーバーには LLM が設定されていないため、内蔵のデモプロバイダーが回答しています。\n\n` +
    `入力内容：「${excerpt}」\n\n` +
    `実際のモデルと同じようにトークン単位でストリーミングします。実際のモデルに接続するには \`LLM_BASE_URL\`、` +
    `\`LLM_API_KEY\`、\`LLM_MODEL\`（OpenAI 互換 API）を設定してサーバーを再起動してください。`,
  es: (excerpt) =>
    `**Modelo de demostración** — este servidor no tiene un LLM configurado, así que esta respuesta la da el proveedor de demostración integrado.\n\n` +
    `Escribiste: «${excerpt}»\n\n` +
    `Se transmite token a token al ritmo de un modelo real. Para conectar un modelo real, define \`LLM_BASE_URL\`, ` +
    `\`LLM_API_KEY\` y \`LLM_MODEL\` (cualquier API compatible con OpenAI) y reinicia el servidor.`,
};

function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== 'user') continue;
    return message.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join(' ')
      .trim();
  }
  return '';
}

function promptText(prompt: LanguageModelV4Prompt): string {
  return prompt
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join(' '),
    )
    .join('\n');
}

/** Session titles (providerOptions.demo.task = 'title'): the question's first words, framed in the language. */
const TITLES: Record<SupportedLanguage, (topic: string) => string> = {
  en: (topic) => `Chat about ${topic}`,
  ko: (topic) => `${topic}에 대한 대화`,
  zh: (topic) => `关于${topic}的对话`,
  ja: (topic) => `${topic}についての会話`,
  es: (topic) => `Conversación sobre ${topic}`,
};
const TITLE_WORDS = 5;
const TITLE_CHARS = 24;

function demoTitle(language: SupportedLanguage, prompt: LanguageModelV4Prompt): string {
  // The title prompt reads "User: <question>\n\nAssistant: <answer>".
  const question = lastUserText(prompt).replace(/^User:\s*/, '').split(/\n\s*\nAssistant:/)[0] ?? '';
  const words = question.replace(/\s+/g, ' ').trim().split(' ').slice(0, TITLE_WORDS).join(' ');
  const topic = Array.from(words).slice(0, TITLE_CHARS).join('').replace(/[\s?!.,;:。？！、，]+$/u, '');
  return TITLES[language](topic);
}

/** Attached files arrive as `<file name="…">text</file>` blocks (services/fileContext). */
const FILE_BLOCK = /<file name="([^"]*)"[^>]*>([\s\S]*?)<\/file>/g;
const ATTACHED: Record<SupportedLanguage, string> = { en: 'Attached files', ko: '첨부 파일', zh: '附件', ja: '添付ファイル', es: 'Archivos adjuntos' };
const FIRST_WORDS = 8;
const unescapeAttribute = (value: string) => value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Each attached file's name and first words, so a demo answer shows what it was given. */
function attachedFiles(said: string): string[] {
  return [...said.matchAll(FILE_BLOCK)].map(([, name = '', body = '']) => {
    const words = body.replace(/^\[[^\]\n]*\]$/gm, '').split(/\s+/).filter(Boolean);
    const start = words.slice(0, FIRST_WORDS).join(' ');
    return `${unescapeAttribute(name)} (“${start}${words.length > FIRST_WORDS ? '…' : ''}”)`;
  });
}

function demoAnswer(options: LanguageModelV4CallOptions): string {
  const requested = options.providerOptions?.demo?.language;
  const language = isSupportedLanguage(requested) ? requested : 'en';
  if (options.providerOptions?.demo?.task === 'title') return demoTitle(language, options.prompt);
  const userText = lastUserText(options.prompt);
  const said = Array.from(userText.replace(FILE_BLOCK, ' ').replace(/\s+/g, ' ').trim());
  const excerpt = said.length > EXCERPT_MAX ? `${said.slice(0, EXCERPT_MAX).join('')}…` : said.join('');
  const attached = attachedFiles(userText);
  return ANSWERS[language](excerpt) + (attached.length > 0 ? `\n\n${ATTACHED[language]}: ${attached.join(', ')}` : '');
}

/** Words with their trailing whitespace: what a real model's deltas roughly look like. */
const toTokens = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

function usage(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

/**
 * The embedded default model: answers offline with a clearly labelled text, streamed token by
 * token at `tokenDelayMs`, and stops as soon as the call's abort signal fires.
 */
class DemoLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'demo';
  readonly supportedUrls = {};

  constructor(
    readonly modelId: string,
    private readonly tokenDelayMs: number,
  ) {}

  async doGenerate(options: LanguageModelV4CallOptions) {
    const text = demoAnswer(options);
    return {
      content: [{ type: 'text' as const, text }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage: usage(estimateTokens(promptText(options.prompt)), toTokens(text).length),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const tokens = toTokens(demoAnswer(options));
    const inputTokens = estimateTokens(promptText(options.prompt));
    const delay = this.tokenDelayMs;
    const signal = options.abortSignal;
    let next = 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'response-metadata', modelId: 'demo', timestamp: new Date() });
        controller.enqueue({ type: 'text-start', id: 'answer' });
      },
      async pull(controller) {
        signal?.throwIfAborted();
        if (next < tokens.length) {
          if (delay > 0) await sleep(delay, undefined, { signal });
          controller.enqueue({ type: 'text-delta', id: 'answer', delta: tokens[next++] ?? '' });
          return;
        }
        controller.enqueue({ type: 'text-end', id: 'answer' });
        controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(inputTokens, tokens.length) });
        controller.close();
      },
    });
    return { stream };
  }
}

export function createDemoProvider(tokenDelayMs: number): ProviderV4 {
  const unsupported = (modelType: 'embeddingModel' | 'imageModel') => (modelId: string) => {
    throw new NoSuchModelError({ modelId, modelType });
  };
  return {
    specificationVersion: 'v4',
    languageModel: (modelId) => new DemoLanguageModel(modelId, tokenDelayMs),
    embeddingModel: unsupported('embeddingModel'),
    imageModel: unsupported('imageModel'),
  };
}
