import { type StepResult, type ToolSet, dynamicTool, jsonSchema } from 'ai';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCall } from '../../../shared/api/chat';
import { TOOL_RESULT_PREVIEW_MAX, type ToolCallStatus } from '../../../shared/domain/mcp';
import { estimateTokens } from '../../../shared/domain/tokens';
import type { Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { type McpSession, type McpToolResult, classifyFailure } from '../../mcp/connector';
import { recordAudit } from '../auditLog/service';
import { messageCost } from '../credits/service';
import { type CallableMcpTool, chatbotMcpTools } from '../mcpServers/service';
import { storableText } from './liveAnswers';
import { webSearchCredits } from './sources';
import type { ChatDeps, ChatTurn } from './turn';

/*
 * A chatbot's tools in the chat (issue 24; docs/decisions "Tools in the chat"): which tools a send
 * offers the model, running a call (checked again at the call, with its own time limit), and how
 * far the answer's credit reservation lets the tool loop go.
 */

/** A tool offered to the model, under a name unique among the answer's tools that every provider takes. */
export interface ChatTool extends CallableMcpTool {
  modelName: string;
}

/** Function names as OpenAI and most providers take them. */
const MODEL_NAME_MAX = 64;
/** The most of a tool's result the model reads (the answer and the history keep TOOL_RESULT_PREVIEW_MAX). */
const TOOL_RESULT_MODEL_MAX = 20_000;
/**
 * A further model step needs at least this many output tokens the reservation still pays for
 * (fewer when the send's own limit is lower); otherwise the loop ends before it.
 */
const STEP_MIN_OUTPUT = 256;

/**
 * Names for the model: the tool's own when valid and unique among the chatbot's tools (two servers
 * may both have `search`), else made unique with the tool's id; the frames keep the real name.
 */
function withModelNames(tools: CallableMcpTool[]): ChatTool[] {
  const taken = new Set<string>();
  const named: ChatTool[] = [];
  for (const tool of tools) {
    const clean = tool.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MODEL_NAME_MAX);
    const suffix = `_${tool.id}`;
    const modelName =
      taken.has(clean) || tools.some((other) => other !== tool && other.name === tool.name)
        ? `${clean.slice(0, MODEL_NAME_MAX - suffix.length)}${suffix}`
        : clean;
    taken.add(modelName);
    named.push({ ...tool, modelName });
  }
  return named;
}

/** The chatbot's tools the member may use now, named for the model. */
export async function offeredTools(q: Queryable, member: MemberRow, chatbotId: number): Promise<ChatTool[]> {
  return withModelNames(await chatbotMcpTools(q, member, chatbotId));
}

/** What offering the tools adds to every step's input (their names, descriptions and schemas). */
export const toolDefinitionTokens = (tools: ChatTool[]) =>
  tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools.map((tool) => [tool.modelName, tool.description, tool.inputSchema])));

/** Values as PostgreSQL's jsonb takes them: strings without NUL or half a surrogate pair. */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [storableText(key), storable(inner)]));
  return value;
}

/** A call's arguments as kept: an object (what a model sends that is not one is kept under `input`). */
export function callArguments(input: unknown): Record<string, unknown> {
  const value = storable(input);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: value ?? null };
}

/** An MCP result as text: its text parts joined, other kinds of content named. */
export function resultText(result: McpToolResult): string {
  return (result.content ?? [])
    .map((part) => {
      if (part.type === 'text') return part.text ?? '';
      if (part.type === 'resource') return part.resource?.text ?? `[resource ${part.resource?.uri ?? ''}]`;
      if (part.type === 'resource_link') return `[link ${part.uri ?? ''}]`;
      return `[${part.type}]`;
    })
    .join('\n');
}

/** How a call ended, as its execution saw it. */
export interface EndedCall {
  status: Exclude<ToolCallStatus, 'running'>;
  result: string;
  durationMs: number | null;
}

export const preview = (text: string) => storableText(text).slice(0, TOOL_RESULT_PREVIEW_MAX);

export interface ToolRunner {
  /** The tools as streamText takes them. */
  tools: ToolSet;
  /** The calls that ended, by the model's id of the call. */
  ended: Map<string, EndedCall>;
  /** Closes the connections the calls opened. */
  close(): Promise<void>;
}

/**
 * Runs the turn's tools: each call is checked again (still on the chatbot, switched on, listed,
 * allowed to one of the member's groups), has TOOL_CALL_TIMEOUT_SECONDS, and stops with the answer.
 * Whatever happens the model is told it as the tool's result; only a stop ends the loop.
 */
export function toolRunner(deps: Pick<ChatDeps, 'db' | 'mcp' | 'config'>, turn: ChatTurn, signal: AbortSignal): ToolRunner {
  const timeoutSeconds = deps.config.TOOL_CALL_TIMEOUT_SECONDS;
  const sessions = new Map<number, McpSession>();
  const ended = new Map<string, EndedCall>();
  const tools: ToolSet = {};
  for (const offered of turn.tools) {
    tools[offered.modelName] = dynamicTool({
      description: offered.description,
      inputSchema: jsonSchema(offered.inputSchema),
      execute: async (input, { toolCallId, abortSignal }) => {
        const started = performance.now();
        const end = (status: EndedCall['status'], result: string) => {
          ended.set(toolCallId, { status, result: preview(result), durationMs: Math.round(performance.now() - started) });
          return result.slice(0, TOOL_RESULT_MODEL_MAX);
        };
        // A check that cannot be made refuses the call rather than say why to the model.
        const [tool] = await chatbotMcpTools(deps.db, turn.member, turn.chatbot.id, offered.id).catch(() => []);
        if (!tool) return end('refused', `The tool ${offered.name} is not available: it was switched off or is no longer allowed to this member.`);
        let session = sessions.get(tool.server.id);
        if (!session) sessions.set(tool.server.id, (session = deps.mcp.openSession(tool.target)));
        const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
        try {
          const result = await session.callTool(tool.name, callArguments(input), {
            signal: AbortSignal.any([signal, timeout, ...(abortSignal ? [abortSignal] : [])]),
            timeoutMs: timeoutSeconds * 1000,
          });
          const text = resultText(result);
          return result.isError ? end('error', text || 'The tool failed without saying why.') : end('ok', text);
        } catch (error) {
          if (signal.aborted) {
            end('stopped', 'Stopped before the tool answered.');
            throw error;
          }
          const timedOut = timeout.aborted || (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout));
          if (timedOut) return end('timeout', `The tool did not answer within ${timeoutSeconds} s.`);
          return end('error', classifyFailure(error, timeoutSeconds).message);
        }
      },
    });
  }
  return {
    tools,
    ended,
    close: async () => {
      await Promise.all([...sessions.values()].map((session) => session.close()));
    },
  };
}

/**
 * How many output tokens the next model step may have so that the answer, at its reservation's
 * rates, never costs more than was reserved (DESIGN §7): what the steps so far cost, plus the next
 * step's input (the last step's input and output and the tools' results, all sent again), leaves
 * the rest for its output, at most the send's own output limit. A free model's answer is bounded
 * by its step limit only.
 */
export function nextStepOutput(turn: ChatTurn, steps: ReadonlyArray<Pick<StepResult<ToolSet>, 'usage' | 'toolResults'>>): number {
  const { reservation, model } = turn;
  if (!reservation) return turn.outputLimit;
  const last = steps.at(-1);
  const inputOf = (step: (typeof steps)[number]) => step.usage.inputTokens ?? turn.estimatedInputTokens;
  const outputOf = (step: (typeof steps)[number]) => step.usage.outputTokens ?? 0;
  const used =
    steps.reduce((sum, step) => sum + messageCost(model, { inputTokens: inputOf(step), outputTokens: outputOf(step) }), 0) +
    webSearchCredits(model, turn.sources);
  const results = last ? last.toolResults.reduce((sum, result) => sum + estimateTokens(String(result.output)), 0) : 0;
  const nextInput = last ? inputOf(last) + outputOf(last) + results : turn.estimatedInputTokens;
  const left = reservation.amount - used - messageCost(model, { inputTokens: nextInput, outputTokens: 0 });
  if (left < 0) return 0;
  if (model.outputCostPer10k <= 0) return turn.outputLimit;
  return Math.min(turn.outputLimit, Math.floor((left * 10_000) / model.outputCostPer10k));
}

/** True when the reservation cannot pay for a further step worth taking. */
export const reservationSpent = (turn: ChatTurn, steps: Parameters<typeof nextStepOutput>[1]) =>
  nextStepOutput(turn, steps) < Math.min(STEP_MIN_OUTPUT, turn.outputLimit);

/** Records a call that ended in the audit log; a sensitive tool's arguments are left out. */
export async function auditToolCall(deps: Pick<ChatDeps, 'db' | 'log'>, turn: ChatTurn, call: ToolCall): Promise<void> {
  const tool = turn.tools.find((offered) => offered.id === call.tool_id);
  const { member, chatbot } = turn;
  await recordAudit(deps.db, {
    tenantId: turn.tenant.id,
    actor: { id: member.id, name: member.name, email: member.email },
    action: 'mcp_tool.call',
    targetType: 'mcp_tool',
    targetId: call.tool_id,
    changes: {
      name: call.name,
      server: call.server_name,
      chatbot: chatbot.enName,
      chatbot_id: chatbot.id,
      session_id: turn.session.id,
      status: call.status,
      duration_ms: call.duration_ms,
      ...(tool?.isSensitive ? {} : { arguments: call.arguments }),
    },
  }).catch((error: unknown) => deps.log.error({ err: error, toolCallId: call.id }, 'recording a tool call in the audit log failed'));
}
