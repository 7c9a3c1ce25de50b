import { describe, expect, it } from 'vitest';
import type { LlmModelRow } from '../../db/rows';
import { affordableOutput } from './service';
import { NO_SOURCES } from './sources';

// balanced-pro's prices: 3 credits per 10K input tokens, 12 per 10K output tokens.
const model = { inputCostPer10k: 3, outputCostPer10k: 12, webSearchCostPer10k: 0 } as LlmModelRow;
// 1,000 input tokens (0.3 credits) and an 8,192-token answer (9.8304 credits).
const textModes = { thinking: false, image: null, taskModeName: null };
const send = { model, estimatedInputTokens: 1000, outputLimit: 8192, reserved: 0.3 + 9.8304, sources: NO_SOURCES, modes: textModes };

describe('the output a reservation pays for', () => {
  it('is the whole output limit when the reservation got what it asked, also when the ledger rounded it down', () => {
    expect(affordableOutput(send, send.reserved)).toBe(8192);
    expect(affordableOutput(send, send.reserved - 4e-7)).toBe(8192);
  });

  it('is what the credits left pay for after the input when the member had less', () => {
    // 1.5 credits: 0.3 for the input, 1.2 buys 1,000 output tokens.
    expect(affordableOutput(send, 1.5)).toBe(1000);
  });

  it('is nothing when the credits do not even pay for the input, and nothing for a partly paid image', () => {
    expect(affordableOutput(send, 0.2)).toBeLessThan(1);
    expect(affordableOutput({ ...send, modes: { ...textModes, image: { size: '1024x1024' } }, reserved: 40 }, 39)).toBe(0);
  });
});
