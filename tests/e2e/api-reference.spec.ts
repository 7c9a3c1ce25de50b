import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, signIn } from './support';

/** Every request of the context's pages, and what the browser says about the Content-Security-Policy. */
function watch(context: BrowserContext) {
  const requests: string[] = [];
  const cspViolations: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
  return { requests, cspViolations };
}

interface OpenApiDocument {
  info: { title: string };
  paths: Record<string, Record<string, { summary: string }>>;
}

async function openReference(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const openapi = (await (await page.request.get('/api/v1/openapi.json')).json()) as OpenApiDocument;
  await expect(page.getByRole('heading', { name: openapi.info.title })).toBeVisible({ timeout: 30_000 });
}

test('"Docs" opens the API reference rendered from our OpenAPI document, offline and under the CSP', async ({ page, context, baseURL }) => {
  const seen = watch(context);
  await signIn(page, ADMIN, { to: '/dashboard/developers' });
  const link = page.getByTestId('api-reference-link');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(page.getByTestId('nav-docs')).toHaveAttribute('href', (await link.getAttribute('href'))!);

  const [reference, response] = await Promise.all([
    page.waitForEvent('popup'),
    context.waitForEvent('response', (answer) => new URL(answer.url()).pathname === '/api/v1/docs/'),
    link.click(),
  ]);
  expect(response.headers()['content-security-policy']).toContain("script-src 'self';");

  // Operations of our document, by their summaries, under its tags.
  const openapi = (await (await reference.request.get('/api/v1/openapi.json')).json()) as OpenApiDocument;
  await expect(reference.getByRole('heading', { name: openapi.info.title })).toBeVisible({ timeout: 30_000 });
  const sidebar = reference.getByRole('complementary');
  await expect(sidebar.getByRole('link', { name: openapi.paths['/api/v1/auth/sign-in/']!.post!.summary })).toBeVisible();
  const subscribe = openapi.paths['/api/v1/member-billing-plans/{planId}/']!.post!.summary;
  await sidebar.getByRole('button', { name: 'Open Group - billing' }).click();
  await sidebar.getByRole('link', { name: subscribe }).click();
  await expect(reference.getByRole('heading', { name: subscribe })).toBeVisible();

  expect(seen.cspViolations).toEqual([]);
  const outside = seen.requests.filter((url) => !url.startsWith(`${baseURL}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
  expect(outside).toEqual([]);
});

for (const width of [1440, 375]) {
  test(`the API reference passes axe at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openReference(page, '/api/v1/docs/?lang=ko');
    await page.screenshot({ path: `test-results/console/api-reference-${width}.png` });
    await expectNoSeriousA11yViolations(page);
  });
}
