import type { z } from 'zod';
import type { chatBodySchema } from '../../../shared/api/chat';
import { DEFAULT_IMAGE_SIZE, type ImageSize, THINKING_EFFORT } from '../../../shared/domain/modes';
import type { LlmModelRow } from '../../db/rows';
import { AppError } from '../../errors';

/** The modes a send runs in, decided once by checkSend. */
export interface SendModes {
  /** Reasoning asked of the model: only for models that reason (`llm_models.supports_reasoning`). */
  thinking: boolean;
  /** Image mode: the text is the prompt of one image of this size. */
  image: { size: ImageSize } | null;
  /** The chosen task mode's name (its instructions are in the system prompt). */
  taskModeName: string | null;
}

export function sendModes(body: z.output<typeof chatBodySchema>, model: LlmModelRow, taskMode: { name: string } | undefined): SendModes {
  // An attached file alone makes a message, but not an image prompt.
  if (body.image_generation && !body.text.trim()) throw new AppError(422, 'message_empty', 'Describe the image to generate.');
  return {
    // Asking a model that cannot reason for a reasoning effort makes some APIs refuse the call.
    thinking: Boolean(body.thinking) && model.supportsReasoning,
    image: body.image_generation ? { size: body.image_size ?? DEFAULT_IMAGE_SIZE } : null,
    taskModeName: taskMode?.name ?? null,
  };
}

/**
 * streamText options of thinking mode: a reasoning effort, which the OpenAI-compatible provider
 * sends as `reasoning_effort` and the demo model answers with reasoning parts. Without thinking
 * nothing is sent, so the model keeps its own default.
 */
export const thinkingOptions = (modes: SendModes) => (modes.thinking ? { reasoning: THINKING_EFFORT } : {});
