import { generateText } from 'ai';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SupportedLanguage } from '../../../shared/domain/language';
import { SESSION_TITLE_MAX } from '../../../shared/domain/sharing';
import type { AppDeps } from '../../deps';
import { chatbots, llmModels, sessionMessages, sessions } from '../../db/schema';
import type { SessionRow } from '../../db/rows';
import { AppError } from '../../errors';

/** `log` is the request's. */
export type TitleDeps = Pick<AppDeps, 'db' | 'llm' | 'log'>;

/** How long a title may take before the first message stands in for it. */
const TITLE_TIMEOUT_MS = 15_000;
/** What the model reads of the first exchange: enough to name it, little to pay for. */
const EXCERPT_MAX = 1500;

const LANGUAGE_NAMES: Record<SupportedLanguage, string> = {
  ko: 'Korean',
  en: 'English',
  zh: 'Simplified Chinese',
  ja: 'Japanese',
  es: 'Spanish',
};

/** Whitespace collapsed, cut at SESSION_TITLE_MAX characters with an ellipsis. */
export function clipTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > SESSION_TITLE_MAX
    ? `${chars
        .slice(0, SESSION_TITLE_MAX - 1)
        .join('')
        .trimEnd()}…`
    : flat;
}

/** The model's answer as a title: first line, without quotes, a "Title:" label or a final full stop. */
function cleanTitle(raw: string): string {
  const line = raw.trim().split('\n')[0] ?? '';
  return clipTitle(
    line
      .replace(/^(title|제목|标题|タイトル|título)\s*[:：]\s*/i, '')
      .replace(/^["'“”‘’「『«*#\s]+|["'“”‘’」』»*\s]+$/g, '')
      .replace(/[.。]$/, ''),
  );
}

const excerpt = (text: string) => Array.from(text).slice(0, EXCERPT_MAX).join('');

/**
 * Titles the session after its first answer with the chatbot's model, in `language`. Any failure
 * of the model (unreachable, refused, empty, too slow) falls back to the first message, cut at
 * SESSION_TITLE_MAX, so the call never fails because of the model. 403 `no_history` when nobody
 * has said anything yet. Not metered: it is a few dozen tokens.
 */
export async function titleSession(deps: TitleDeps, session: SessionRow, language: SupportedLanguage): Promise<SessionRow> {
  const said = await deps.db
    .select({ speaker: sessionMessages.speakerType, text: sessionMessages.text })
    .from(sessionMessages)
    .where(and(eq(sessionMessages.sessionId, session.id), sql`btrim(${sessionMessages.text}) <> ''`))
    .orderBy(asc(sessionMessages.id))
    .limit(2);
  const question = said.find((row) => row.speaker === 'member');
  if (!question) throw new AppError(403, 'no_history', 'There is no history in this session.');
  const answer = said.find((row) => row.speaker === 'chatbot');

  let title = '';
  try {
    const [model] = await deps.db
      .select({ provider: llmModels.provider, providerModelId: llmModels.providerModelId })
      .from(chatbots)
      .innerJoin(llmModels, eq(llmModels.id, chatbots.llmModelId))
      .where(eq(chatbots.id, session.chatbotId));
    if (model) {
      const result = await generateText({
        model: deps.llm.languageModel(model.provider, model.providerModelId),
        system:
          `Write a short title (at most six words) for the conversation below, in ${LANGUAGE_NAMES[language]}. ` +
          'Answer with the title only: no quotes, no label, no final full stop.',
        prompt: `User: ${excerpt(question.text)}${answer ? `\n\nAssistant: ${excerpt(answer.text)}` : ''}`,
        maxOutputTokens: 40,
        temperature: 0.2,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
        providerOptions: { demo: { language, task: 'title' } },
      });
      title = cleanTitle(result.text);
    }
  } catch (error) {
    deps.log.warn({ err: error, sessionId: session.id }, 'title generation failed; using the first message');
  }
  const [updated] = await deps.db
    .update(sessions)
    .set({ title: title || clipTitle(question.text) })
    .where(eq(sessions.id, session.id))
    .returning();
  return updated ?? session;
}
