import type { AppDeps } from '../../deps';
import type { LanguageModelCallOptions, ModelMessage } from 'ai';
import type { ChatMeta, Citation, ToolCall } from '../../../shared/api/chat';
import type { PiiKind } from '../../../shared/domain/pii';
import type { ChatbotRow, LlmModelRow, MemberRow, SessionRow, TenantRow } from '../../db/rows';
import type { Billing } from '../credits/service';
import type { SendModes } from './modes';
import type { Sources } from './sources';
import type { ChatTool } from './tools';

/*
 * The types a chat turn passes between the chat service and image mode (which streams an image
 * answer in the chat's place), kept apart so neither module imports the other.
 */

/** `store` and `config.IMAGE_CREDITS`: where image mode keeps its pictures and what one costs; `log` is the request's; `mcp` calls the tools. */
export type ChatDeps = Pick<AppDeps, 'db' | 'llm' | 'answers' | 'store' | 'config' | 'log' | 'mcp'>;

export interface TurnPlace {
  parentId: number | null;
  questionId: number | null;
}

/** A send that passed every check known before streaming; nothing is saved yet. */
export interface CheckedSend {
  tenant: TenantRow;
  member: MemberRow;
  chatbot: ChatbotRow;
  model: LlmModelRow;
  /** The session sent to, or null when this send starts one. */
  existing: SessionRow | null;
  /**
   * Where the turn goes in the session's tree: the message its question follows, and the stored
   * question a regeneration answers again (null: the turn saves a new question).
   */
  place: TurnPlace;
  /** As stored and sent to the model: personal data the tenant masks is masked. */
  text: string;
  maskedPii: PiiKind[];
  fileIds: number[];
  sessionTitle: string | null;
  /** Chatbot instructions, plus the chosen task mode's, plus the sources' passages and web results. */
  system: string;
  /** Document passages and web results given to the model, cited by the answer. */
  sources: Sources;
  messages: ModelMessage[];
  estimatedInputTokens: number;
  /**
   * The longest answer the call asks for, in tokens: the model's maximum, an API call's own limit,
   * and what the context leaves after the input; lowered when the credits left cannot pay for it.
   */
  outputLimit: number;
  /** Credits to reserve before streaming, for an answer of `outputLimit` tokens; 0 for a free model. */
  reserved: number;
  isTest: boolean;
  /** Flags of the session this send creates (a visitor's public chat: public and held for them; an API call's). */
  newSession?: Partial<Pick<SessionRow, 'isPublic' | 'isVisitor' | 'isApi'>>;
  /** The API key of an OpenAI-compatible call: its usage rows name it, and it is no recent chatbot. */
  apiKeyId?: number;
  /** Who pays: the sender, unless a visitor's send is billed to the chatbot's creator. */
  billing?: Billing;
  /** Thinking, image and task mode of the send. */
  modes: SendModes;
  /** The chatbot's tools the member may use (none in image mode and in a visitor's public chat); each call checks again. */
  tools: ChatTool[];
  /** An API call's own sampling, over the chatbot's (its output limit is in `outputLimit`). */
  sampling?: Omit<Sampling, 'maxOutputTokens'>;
}

/** An opened turn: session, member message and answer placeholder saved, credits reserved. */
export interface ChatTurn extends CheckedSend {
  session: SessionRow;
  memberGroupId: number | null;
  meta: ChatMeta;
  reservation: { id: number; amount: number } | null;
}

export interface StreamOutcome {
  text: string;
  /** Every citation streamed: the sources given to the model, then those it named itself (URL source parts). */
  citations: Citation[];
  inputTokens: number;
  outputTokens: number;
  finishReason: 'stop' | 'length' | 'aborted' | 'error';
  /** What the model reasoned (thinking) and for how long. */
  reasoning?: { text: string; ms: number };
  /** Image mode: metered by image instead of by token. */
  image?: ImageOutcome;
  /** The answer's tool calls, in the order the model made them. */
  toolCalls: ToolCall[];
}

/**
 * Sampling an API call chooses for itself, in streamText's terms; what it leaves out is the
 * chatbot's (temperature, top p) or the model's default.
 */
export type Sampling = Pick<
  LanguageModelCallOptions,
  'temperature' | 'topP' | 'maxOutputTokens' | 'stopSequences' | 'presencePenalty' | 'frequencyPenalty' | 'seed'
>;

/** How an image answer is metered: its own usage row, by image. */
export interface ImageOutcome {
  model: string;
  count: number;
  credits: number;
}
