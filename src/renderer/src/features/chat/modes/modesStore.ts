import { create } from 'zustand';
import type { ChatBody, VisitorModes } from '../../../../../shared/api';

interface ModesState {
  /** Ask a reasoning model to think first (only offered for models that can). */
  thinking: boolean;
  /** The next sends generate an image from their text. */
  image: boolean;
  taskModeId: number | null;
}

/** The composer's modes; they stay on for the following sends until turned off. */
export const useModesStore = create<ModesState>(() => ({ thinking: false, image: false, taskModeId: null }));

/** Thinking and image are exclusive: an image answer does not reason. */
export const toggleThinking = () => useModesStore.setState((state) => ({ thinking: !state.thinking, image: false }));
export const toggleImage = () => useModesStore.setState((state) => ({ image: !state.image, thinking: false }));
export const chooseTaskMode = (taskModeId: number | null) => useModesStore.setState({ taskModeId });

/** The send body's mode fields. */
export function modesBody(): Pick<ChatBody, 'thinking' | 'image_generation' | 'task_mode_id'> {
  const { thinking, image, taskModeId } = useModesStore.getState();
  return {
    ...(thinking ? { thinking: true } : {}),
    ...(image ? { image_generation: true } : {}),
    ...(taskModeId !== null ? { task_mode_id: taskModeId } : {}),
  };
}

/** A visitor's send: only the modes the public chatbot allows them (image generation never). */
export function visitorModesBody(allowed: VisitorModes, webSearch: boolean): Pick<ChatBody, 'thinking' | 'web_search' | 'task_mode_id'> {
  const { thinking, taskModeId } = useModesStore.getState();
  return {
    ...(thinking && allowed.thinking ? { thinking: true } : {}),
    ...(webSearch && allowed.web_search ? { web_search: true } : {}),
    ...(taskModeId !== null && allowed.task_modes.some((mode) => mode.id === taskModeId) ? { task_mode_id: taskModeId } : {}),
  };
}
