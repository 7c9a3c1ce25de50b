import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi } from '../../../test/fakeApi';
import { testModel } from '../../../test/fixtures';
import { renderScreen } from '../../../test/render';
import ModelPermissionsPage from './ModelPermissionsPage';

afterEach(() => setPlatformForTests(null));

const model = (id: number, name: string, groups: number[], unlimited = false) => ({
  ...testModel({ id, name, display_name: name, is_unlimited: unlimited, is_low_llm: unlimited }),
  provider: 'demo',
  chatbot_allowed: true,
  available_group_ids: groups,
});
const matrix = {
  groups: [
    { id: 1, ko_name: '기본 그룹', en_name: 'Everyone', is_default: true },
    { id: 2, ko_name: '연구', en_name: 'Research', is_default: false },
  ],
  models: [model(10, 'Pro', [1]), model(11, 'Lite', [1, 2], true)],
};

describe('model permissions page', () => {
  it('shows models × groups, locks the unlimited model on, and puts a switch back when the server refuses', async () => {
    const api = installFakeApi({
      'GET /admin/llm-models/': () => Response.json(matrix),
      'PATCH /admin/llm-models/10/member-groups/2/': () => Response.json({ code: 'internal_error', message: 'x' }, { status: 500 }),
      'PATCH /admin/llm-models/10/member-groups/1/': () => Response.json({ model_id: 10, member_group_id: 1, is_available: false }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    renderScreen(<ModelPermissionsPage />);

    const proResearch = await screen.findByRole('switch', { name: 'Research may use Pro' });
    expect(proResearch).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Research may use Lite' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Research may use Lite' })).toBeDisabled();

    await userEvent.click(proResearch);
    expect(await screen.findByText('A server error occurred. Please try again later.')).toBeVisible();
    await waitFor(() => expect(proResearch).not.toBeChecked());

    const proEveryone = screen.getByRole('switch', { name: 'Everyone may use Pro' });
    await userEvent.click(proEveryone);
    expect(await screen.findByText('Model no longer allowed for the group.')).toBeVisible();
    expect(proEveryone).not.toBeChecked();
    expect(api.find('PATCH', '/admin/llm-models/10/member-groups/1/')).toHaveLength(1);
  });
});
