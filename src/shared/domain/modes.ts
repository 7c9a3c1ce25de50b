/** Sizes an image may be generated at (OpenAI-compatible `size`); the first is the default. */
export const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];
export const DEFAULT_IMAGE_SIZE: ImageSize = IMAGE_SIZES[0];

/** Reasoning effort asked of a reasoning model in thinking mode (AI SDK `reasoning`). */
export const THINKING_EFFORT = 'medium' as const;
