import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../shared/domain/signup';
import { testConfig } from '../config';
import { createSmsService, verificationSms } from './service';

describe('SMS without a provider', () => {
  it('keeps the message in the outbox and logs it for the operator', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sms-outbox-'));
    const warnings: object[] = [];
    try {
      const log = { info: () => {}, warn: (details: object) => warnings.push(details), error: () => {} };
      const sms = createSmsService({ config: testConfig({ SMS_OUTBOX_DIR: dir }), log });
      const delivery = await sms.send('+821012345678', verificationSms('en', '123456', 10));
      expect(delivery.via).toBe('outbox');
      const [file] = await readdir(dir);
      expect(JSON.parse(await readFile(join(dir, file!), 'utf8'))).toMatchObject({
        to: '+821012345678',
        text: 'Your verification code: 123456 (valid for 10 minutes)',
      });
      expect(warnings).toEqual([expect.objectContaining({ to: '+821012345678' })]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('normalizePhone', () => {
  it.each([
    ['+82 10-1234-5678', '+821012345678'],
    ['+1 (415) 555-0100', '+14155550100'],
    ['010-1234-5678', null],
    ['+12', null],
    ['+82abc', null],
  ])('%s → %s', (input, expected) => expect(normalizePhone(input)).toBe(expected));
});
