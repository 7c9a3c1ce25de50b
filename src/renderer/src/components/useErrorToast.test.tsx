import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError, chatbotsApi } from '../../../shared/api';
import { renderScreen } from '../test/render';
import { useErrorToast } from './useErrorToast';

function Probe({ error }: { error: unknown }) {
  useErrorToast(error, chatbotsApi.listChatbots);
  return null;
}

describe('query error toasts', () => {
  it('uses the endpoint’s own message for the statuses spec §8 names for it', async () => {
    renderScreen(<Probe error={new ApiError(422, null)} />);
    expect(await screen.findByText('The chatbot list could not be loaded because of a data format problem.')).toBeInTheDocument();
  });

  it('falls back to the generic status message', async () => {
    renderScreen(<Probe error={new ApiError(403, null)} />);
    expect(await screen.findByText('You need access permission. Please contact your administrator.')).toBeInTheDocument();
  });

  it('stays quiet for 401, which the ended session reports', async () => {
    renderScreen(<Probe error={new ApiError(401, null)} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Please sign in to continue.')).not.toBeInTheDocument();
  });
});
