import type { Chatbot } from '../../../../shared/api';
import { updateChatbotBodySchema } from '../../../../shared/api/chatbots';

/** The fields the editor's form holds; the picture and documents save on their own. */
export interface EditorValues {
  ko_name: string;
  en_name: string;
  ko_key_features: string;
  en_key_features: string;
  system_instructions: string;
  temperature: number;
  top_p: number;
  llm_model_id: number;
  category_ids: number[];
  tool_ids: number[];
  tool_step_limit: number;
}

export const editorSchema = updateChatbotBodySchema;

export function editorValuesOf(chatbot: Chatbot): EditorValues {
  return {
    ko_name: chatbot.ko_name,
    en_name: chatbot.en_name,
    ko_key_features: chatbot.ko_key_features,
    en_key_features: chatbot.en_key_features,
    system_instructions: chatbot.system_instructions,
    temperature: chatbot.temperature,
    top_p: chatbot.top_p,
    llm_model_id: chatbot.llm_model.id,
    category_ids: chatbot.categories.map((category) => category.id),
    tool_ids: chatbot.tool_ids,
    tool_step_limit: chatbot.tool_step_limit,
  };
}

/** The PATCH body: only what changed since the last save (the server trims the texts). */
export function changedFields(saved: EditorValues, values: EditorValues): Partial<EditorValues> {
  const changed: Partial<Record<keyof EditorValues, unknown>> = {};
  for (const key of Object.keys(values) as (keyof EditorValues)[]) {
    if (JSON.stringify(values[key]) !== JSON.stringify(saved[key])) changed[key] = values[key];
  }
  return changed as Partial<EditorValues>;
}
