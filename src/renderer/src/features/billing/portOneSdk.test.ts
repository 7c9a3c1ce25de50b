import { afterEach, describe, expect, it } from 'vitest';
import { PortOneSdkLoadError, loadPortOneSdk } from './portOneSdk';

const URL_A = 'https://sdk.portone.test/v2/browser-sdk.js';
const scripts = () => [...document.head.querySelectorAll('script')].filter((script) => script.src === URL_A);

afterEach(() => {
  document.head.innerHTML = '';
  delete window.PortOne;
});

describe('PortOne SDK loader', () => {
  it('adds the script once, only when asked, and resolves with window.PortOne', async () => {
    expect(scripts()).toHaveLength(0);
    const first = loadPortOneSdk(URL_A);
    const second = loadPortOneSdk(URL_A);
    expect(scripts()).toHaveLength(1);
    const sdk = { requestIssueBillingKey: async () => undefined };
    window.PortOne = sdk;
    scripts()[0]!.dispatchEvent(new Event('load'));
    expect(await first).toBe(sdk);
    expect(await second).toBe(sdk);
  });

  it('forgets a failed load, so the next call adds the script again', async () => {
    const URL_B = `${URL_A}?b`;
    const tags = () => [...document.head.querySelectorAll('script')].filter((script) => script.src === URL_B);
    const failed = loadPortOneSdk(URL_B);
    tags()[0]!.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toBeInstanceOf(PortOneSdkLoadError);
    expect(tags()).toHaveLength(0);
    void loadPortOneSdk(URL_B).catch(() => undefined);
    expect(tags()).toHaveLength(1);
  });
});
