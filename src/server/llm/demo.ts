import { randomUUID } from 'node:crypto';
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
import { DemoImageModel } from './demoImage';
import { demoTitle } from './demoTitle';
import { type DemoToolCall, TOOL_ANSWERS, demoToolCall, trailingToolResults } from './demoTools';

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

/** What the demo "thinks" in thinking mode: labelled, in the member's language. */
const REASONING: Record<SupportedLanguage, string> = {
  en: 'Demo reasoning: reading the question, recalling what the demo model can say about it, and planning a short labelled answer.',
  ko: '데모 추론: 질문을 읽고, 데모 모델이 답할 수 있는 내용을 떠올린 뒤, 짧은 안내 답변을 계획합니다.',
  zh: '演示推理：阅读问题，回想演示模型能说明的内容，并规划一个简短的带标注的回答。',
  ja: 'デモ推論：質問を読み、デモモデルが答えられる内容を思い出し、短いラベル付きの回答を計画します。',
  es: 'Razonamiento de demostración: leo la pregunta, recuerdo lo que el modelo de demostración puede decir y planifico una respuesta breve y etiquetada.',
};

/** The line the demo adds when a task mode is chosen, so its effect shows offline. */
const TASK_MODE_LINE: Record<SupportedLanguage, (name: string) => string> = {
  en: (name) => `Task mode: **${name}** — its instructions were sent to the model.`,
  ko: (name) => `작업 모드: **${name}** — 모드 지침이 모델에 전달되었습니다.`,
  zh: (name) => `任务模式：**${name}** — 其指令已发送给模型。`,
  ja: (name) => `タスクモード：**${name}** — その指示がモデルに送られました。`,
  es: (name) => `Modo de tarea: **${name}** — sus instrucciones se enviaron al modelo.`,
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
        : message.content
            .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : part.type === 'tool-result' ? JSON.stringify(part.output) : ''))
            .join(' '),
    )
    .join('\n');
}

/** The question of the title prompt, which reads "User: <question>\n\nAssistant: <answer>". */
const titleQuestion = (prompt: LanguageModelV4Prompt) =>
  lastUserText(prompt)
    .replace(/^User:\s*/, '')
    .split(/\n\s*\nAssistant:/)[0] ?? '';

/**
 * What the member wrote, quoted inside the Markdown answer: its Markdown characters escaped, so that
 * it shows as written. A masked phone number ("***-****-****") would otherwise turn into emphasis.
 */
const quoted = (text: string) => text.replace(/[\\`*_[\]<>~|]/g, '\\$&');

/** Attached files arrive as `<file name="…">text</file>` blocks (domains/chat/fileContext). */
const FILE_BLOCK = /<file name="([^"]*)"[^>]*>([\s\S]*?)<\/file>/g;
const ATTACHED: Record<SupportedLanguage, string> = { en: 'Attached files', ko: '첨부 파일', zh: '附件', ja: '添付ファイル', es: 'Archivos adjuntos' };
const FIRST_WORDS = 8;
const unescapeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Each attached file's name and first words, so a demo answer shows what it was given. */
function attachedFiles(said: string): string[] {
  return [...said.matchAll(FILE_BLOCK)].map(([, name = '', body = '']) => {
    const words = body
      .replace(/^\[[^\]\n]*\]$/gm, '')
      .split(/\s+/)
      .filter(Boolean);
    const start = words.slice(0, FIRST_WORDS).join(' ');
    return `${quoted(unescapeAttribute(name))} (“${quoted(start)}${words.length > FIRST_WORDS ? '…' : ''}”)`;
  });
}

function demoLanguage(options: LanguageModelV4CallOptions): SupportedLanguage {
  const requested = options.providerOptions?.demo?.language;
  return isSupportedLanguage(requested) ? requested : 'en';
}

/** Like a reasoning model, the demo reasons when a reasoning effort is asked for (thinking mode). */
const reasons = (options: LanguageModelV4CallOptions) =>
  options.reasoning !== undefined && options.reasoning !== 'none' && options.reasoning !== 'provider-default';

function demoAnswer(options: LanguageModelV4CallOptions): string {
  const language = demoLanguage(options);
  if (options.providerOptions?.demo?.task === 'title') return demoTitle(titleQuestion(options.prompt));
  // The step after its tool call: what the tools said.
  const results = trailingToolResults(options.prompt);
  if (results.length > 0) return results.map(({ toolName, text }) => TOOL_ANSWERS[language](toolName, quoted(text.replace(/\s+/g, ' ').trim()))).join('\n\n');
  const userText = lastUserText(options.prompt);
  const said = Array.from(userText.replace(FILE_BLOCK, ' ').replace(/\s+/g, ' ').trim());
  const excerpt = quoted(said.length > EXCERPT_MAX ? `${said.slice(0, EXCERPT_MAX).join('')}…` : said.join(''));
  const attached = attachedFiles(userText);
  const taskMode = options.providerOptions?.demo?.taskMode;
  const answer = ANSWERS[language](excerpt) + (attached.length > 0 ? `\n\n${ATTACHED[language]}: ${attached.join(', ')}` : '');
  return typeof taskMode === 'string' && taskMode ? `${TASK_MODE_LINE[language](taskMode)}\n\n${answer}` : answer;
}

/** Words with their trailing whitespace: what a real model's deltas roughly look like. */
const toTokens = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

/** The answer's tokens, cut at the call's output limit as a real model would (finishing with `length`). */
function answerTokens(options: LanguageModelV4CallOptions): { tokens: string[]; finishReason: 'stop' | 'length' } {
  const tokens = toTokens(demoAnswer(options));
  const limit = options.maxOutputTokens;
  return limit !== undefined && tokens.length > limit ? { tokens: tokens.slice(0, limit), finishReason: 'length' } : { tokens, finishReason: 'stop' };
}

function usage(inputTokens: number, textTokens: number, reasoningTokens = 0): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: textTokens + reasoningTokens, text: textTokens, reasoning: reasoningTokens },
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
    const { tokens, finishReason } = answerTokens(options);
    return {
      content: [{ type: 'text' as const, text: tokens.join('') }],
      finishReason: { unified: finishReason, raw: finishReason },
      usage: usage(estimateTokens(promptText(options.prompt)), tokens.length),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const inputTokens = estimateTokens(promptText(options.prompt));
    const call = trailingToolResults(options.prompt).length === 0 ? demoToolCall(options, lastUserText(options.prompt)) : null;
    if (call) return { stream: toolCallStream(call, inputTokens) };
    const thoughts = reasons(options) ? toTokens(REASONING[demoLanguage(options)]) : [];
    const { tokens, finishReason } = answerTokens(options);
    const delay = this.tokenDelayMs;
    const signal = options.abortSignal;
    // Reasoning parts first (thinking mode), then the answer's text parts, one token per pull.
    const parts: LanguageModelV4StreamPart[] = [
      ...(thoughts.length > 0
        ? [
            { type: 'reasoning-start' as const, id: 'reasoning' },
            ...thoughts.map((delta) => ({ type: 'reasoning-delta' as const, id: 'reasoning', delta })),
            { type: 'reasoning-end' as const, id: 'reasoning' },
          ]
        : []),
      { type: 'text-start', id: 'answer' },
      ...tokens.map((delta) => ({ type: 'text-delta' as const, id: 'answer', delta })),
      { type: 'text-end', id: 'answer' },
    ];
    let next = 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'response-metadata', modelId: 'demo', timestamp: new Date() });
      },
      async pull(controller) {
        signal?.throwIfAborted();
        const part = parts[next++];
        if (part) {
          if (delay > 0 && part.type.endsWith('-delta')) await sleep(delay, undefined, { signal });
          controller.enqueue(part);
          return;
        }
        controller.enqueue({
          type: 'finish',
          finishReason: { unified: finishReason, raw: finishReason },
          usage: usage(inputTokens, tokens.length, thoughts.length),
        });
        controller.close();
      },
    });
    return { stream };
  }
}

/** A step that only calls a tool, as a model asked for the time would. */
function toolCallStream(call: DemoToolCall, inputTokens: number): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', modelId: 'demo', timestamp: new Date() },
    { type: 'tool-call', toolCallId: `demo-call-${randomUUID().slice(0, 8)}`, toolName: call.toolName, input: call.input },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(inputTokens, estimateTokens(call.input)) },
  ];
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

export function createDemoProvider(tokenDelayMs: number): ProviderV4 {
  return {
    specificationVersion: 'v4',
    languageModel: (modelId) => new DemoLanguageModel(modelId, tokenDelayMs),
    embeddingModel: (modelId) => {
      throw new NoSuchModelError({ modelId, modelType: 'embeddingModel' });
    },
    imageModel: (modelId) => new DemoImageModel(modelId),
  };
}
