import type { ChatBody, ChatFrame, ChatMeta, Citation, SessionFile, ToolCall } from '../../../../shared/api';
import { maskPii } from '../../../../shared/domain/pii';
import type { ChatStreamRequest } from '../../platform/types';
import { OutputBatcher } from './outputBatcher';
import { frameErrorKey, sendErrorKey, type ChatErrorKey } from './chatErrors';

export type ChatRunStatus = 'sending' | 'streaming' | 'done' | 'stopped' | 'failed';

export interface ChatRunSnapshot {
  memberText: string;
  /** The files sent with the message, shown on it while the answer streams. */
  memberFiles: readonly SessionFile[];
  meta: ChatMeta | null;
  /** Answer text released by the batcher so far: what the screen shows. */
  text: string;
  thinking: string;
  /** From the first thinking frame to the first text frame; null until the answer starts. */
  thinkingMs: number | null;
  citations: Citation[];
  /** The answer's tool calls in the order they started, each as its latest frame said (issue 24). */
  toolCalls: ToolCall[];
  images: string[];
  usage: { input_tokens: number; output_tokens: number; credits: number } | null;
  status: ChatRunStatus;
  error: ChatErrorKey | null;
  /** True when the send was refused before any answer (the message was not stored). */
  rejected: boolean;
}

export interface ChatRunOptions {
  chatbotId: number;
  body: ChatBody;
  /** The files whose ids the body sends (their names and types, to show them on the message). */
  memberFiles?: readonly SessionFile[];
  /** The question as shown, when the body does not carry it (a regeneration asks the stored one again). */
  memberText?: string;
  /**
   * A regeneration or an edit: the stored question it answers again or replaces. From it on, the
   * loaded branch gives way to this turn.
   */
  replacesFrom?: number;
  streamChat: (request: ChatStreamRequest) => Promise<void>;
  onMeta?: (meta: ChatMeta) => void;
  /** Called once when the answer reached a final status and everything received is on screen. */
  onSettled?: (snapshot: ChatRunSnapshot) => void;
}

const isFinal = (status: ChatRunStatus) => status === 'done' || status === 'stopped' || status === 'failed';

/**
 * One sent message and its streamed answer, as an external store for useSyncExternalStore so that
 * only the streaming bubble re-renders on each batching tick. Text frames go through the
 * OutputBatcher; every other frame applies at once.
 */
let nextRunId = 1;

export class ChatRun {
  /** Distinguishes runs for React keys. */
  readonly id = nextRunId++;
  readonly chatbotId: number;
  private snapshot: ChatRunSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();
  private readonly batcher: OutputBatcher;
  /** Status to settle on once the batcher has released everything (set by the `end` frame). */
  private endStatus: ChatRunStatus | null = null;
  /** Everything received, released or not: what the server stores for a stopped answer. */
  private received = '';
  private thinkingStartedAt: number | null = null;

  constructor(private readonly options: ChatRunOptions) {
    this.chatbotId = options.chatbotId;
    this.batcher = new OutputBatcher((text) => this.onRelease(text));
    this.snapshot = {
      memberText: options.memberText ?? options.body.text ?? '',
      memberFiles: options.memberFiles ?? [],
      meta: null,
      text: '',
      thinking: '',
      thinkingMs: null,
      citations: [],
      toolCalls: [],
      images: [],
      usage: null,
      status: 'sending',
      error: null,
      rejected: false,
    };
  }

  /** What was sent. */
  get body(): ChatBody {
    return this.options.body;
  }

  get replacesFrom(): number | null {
    return this.options.replacesFrom ?? null;
  }

  get sessionHashId(): string | null {
    return this.snapshot.meta?.session_hash_id ?? this.options.body.session_hash_id ?? null;
  }

  get isActive(): boolean {
    return !isFinal(this.snapshot.status);
  }

  getSnapshot = (): ChatRunSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts the request; resolves when the answer is settled. */
  async start(): Promise<void> {
    try {
      await this.options.streamChat({
        chatbotId: this.options.chatbotId,
        body: this.options.body,
        signal: this.controller.signal,
        onMeta: (meta) => this.handleMeta(meta),
        onFrame: (frame) => this.handleFrame(frame),
      });
      // The transport resolved without an `end` frame: the connection dropped mid-answer.
      if (this.isActive && this.endStatus === null) this.finish('failed', 'chat:errors.stream_interrupted');
    } catch (error) {
      if (!this.isActive) return;
      if (this.controller.signal.aborted) return this.finish('stopped');
      const rejected = this.snapshot.meta === null;
      this.update({ rejected });
      this.finish('failed', rejected ? sendErrorKey(error) : 'chat:errors.stream_interrupted');
    }
  }

  /** Stop button, a new send or leaving the conversation: keeps what was received. */
  stop(): void {
    if (!this.isActive) return;
    this.controller.abort();
    this.finish('stopped');
  }

  handleMeta(meta: ChatMeta): void {
    if (!this.isActive) return;
    // The server stored the message with personal data masked: the same shared masking shows what it keeps.
    const memberText = meta.masked_pii ? maskPii(this.snapshot.memberText, meta.masked_pii) : this.snapshot.memberText;
    this.update({ meta, memberText, status: 'streaming' });
    this.options.onMeta?.(meta);
  }

  handleFrame(frame: ChatFrame): void {
    if (!this.isActive) return;
    switch (frame.type) {
      case 'text':
        if (this.thinkingStartedAt !== null && this.snapshot.thinkingMs === null) this.update({ thinkingMs: performance.now() - this.thinkingStartedAt });
        this.received += frame.delta;
        this.batcher.push(frame.delta);
        break;
      case 'thinking':
        this.thinkingStartedAt ??= performance.now();
        this.update({ thinking: this.snapshot.thinking + frame.delta });
        break;
      case 'citation':
        this.update({ citations: [...this.snapshot.citations, frame.citation] });
        break;
      case 'tool': {
        // A call's end comes as a second frame with the same id: it takes the started one's place.
        const calls = this.snapshot.toolCalls;
        const at = calls.findIndex((call) => call.id === frame.call.id);
        this.update({ toolCalls: at === -1 ? [...calls, frame.call] : calls.map((call, index) => (index === at ? frame.call : call)) });
        break;
      }
      case 'image':
        this.update({ images: [...this.snapshot.images, frame.url] });
        break;
      case 'usage':
        this.update({ usage: { input_tokens: frame.input_tokens, output_tokens: frame.output_tokens, credits: frame.credits } });
        break;
      case 'error':
        this.finish('failed', frameErrorKey(frame.code));
        break;
      case 'end': {
        const status = frame.finish_reason === 'aborted' ? 'stopped' : frame.finish_reason === 'error' ? 'failed' : 'done';
        if (status === 'failed') return this.finish('failed', 'chat:errors.stream_failed');
        this.endStatus = status;
        // A normal end shows the last batch first: at most a tick and a frame away.
        if (this.batcher.pending === 0) this.finish(status);
        break;
      }
    }
  }

  private onRelease(text: string): void {
    this.update({ text: this.snapshot.text + text });
    if (this.endStatus !== null && this.batcher.pending === 0) this.finish(this.endStatus);
  }

  private finish(status: ChatRunStatus, error: ChatErrorKey | null = null): void {
    if (!this.isActive) return;
    this.batcher.dispose();
    // A call still running when the answer ended will not end on this screen: it stopped with the answer.
    const toolCalls = this.snapshot.toolCalls.map((call) => (call.status === 'running' ? { ...call, status: 'stopped' as const } : call));
    this.update({ text: this.received, status, error, toolCalls });
    this.options.onSettled?.(this.snapshot);
  }

  private update(patch: Partial<ChatRunSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}
