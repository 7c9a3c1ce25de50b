import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { Citations } from './Citations';
import { WebSearchButton } from './WebSearchButton';
import { useWebSearchStore, webSearchFields } from './webSearchStore';

const tenant = (webSearch: boolean) => ({
  subdomain: 'demo',
  tenant_name: 'Demo',
  logo_url: null,
  plan: { is_low_llm_free: false },
  features: { web_search: webSearch },
});

describe('WebSearchButton', () => {
  afterEach(() => useWebSearchStore.setState({ on: false }));

  it('toggles web search for the next sends with the keyboard, announcing its state', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json(tenant(true)) });
    renderScreen(<WebSearchButton />);
    const button = screen.getByRole('button', { name: 'Web search' });
    await waitFor(() => expect(button).toHaveAccessibleDescription('Search the web for this answer'));
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(webSearchFields()).toEqual({});

    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(webSearchFields()).toEqual({ web_search: true });
    await userEvent.keyboard(' ');
    expect(button).toHaveAttribute('aria-pressed', 'false');
  });

  it('stays off and says why when the server has no search service', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json(tenant(false)) });
    renderScreen(<WebSearchButton />);
    const button = screen.getByRole('button', { name: 'Web search' });
    await waitFor(() => expect(button).toHaveAccessibleDescription('Web search is not set up on this server'));
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(webSearchFields()).toEqual({});
  });
});

describe('Citations', () => {
  it('lists document passages with their page or section, expandable, and web pages as links', async () => {
    renderScreen(
      <Citations
        citations={[
          { kind: 'document', file_id: 1, name: '취업규칙.pdf', page: 3, snippet: '연차휴가는 15일을 부여한다.' },
          { kind: 'document', file_id: 2, name: 'Handbook.docx', section: 'Remote work', snippet: 'Up to three days a week.' },
          { kind: 'web', url: 'https://example.org/a', title: 'Example page', snippet: 'An example.' },
          { kind: 'web', url: 'javascript:alert(1)', title: 'Not a page' },
        ]}
      />,
    );
    const sources = screen.getByRole('region', { name: 'Sources' });
    const items = within(sources).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('[1]취업규칙.pdfp. 3');
    expect(items[1]).toHaveTextContent('Remote work');
    expect(screen.queryByText('연차휴가는 15일을 부여한다.')).toBeNull();

    const show = within(items[0]!).getByRole('button', { name: 'Show passage' });
    await userEvent.click(show);
    expect(within(items[0]!).getByRole('button', { name: 'Hide passage' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('연차휴가는 15일을 부여한다.')).toBeVisible();

    const link = within(items[2]!).getByRole('link', { name: 'Example page' });
    expect(link).toHaveAttribute('href', 'https://example.org/a');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(items[2]).toHaveTextContent('example.org');
    expect(within(items[3]!).queryByRole('link')).toBeNull();
  });

  it('shows nothing without citations', () => {
    renderScreen(<Citations citations={[]} />);
    expect(screen.queryByRole('region', { name: 'Sources' })).toBeNull();
  });
});
