import type { SendDeps } from '../../../src/server/domains/chat/service';
import { createSendTargets } from '../../../src/server/domains/chat/sendContext';
import { createInputGuard } from '../../../src/server/domains/security/inputGuard';
import type { TestServer } from '../../fixtures/testServer';

/** What `checkSend` reads, made from the test server's database and configuration as the app makes it (no files, no sources). */
export const sendDeps = ({ db, config }: Pick<TestServer, 'db' | 'config'>): SendDeps => ({
  db,
  guard: createInputGuard({ db, config }),
  sendTargets: createSendTargets({ db }),
});
