/**
 * Child process of tokenVault.test.ts: runs the real keytar-backed vault in an environment without
 * a session bus and prints what happened as JSON on stdout.
 */
import keytar from 'keytar';
import { createKeytarSecretStore } from '../../src/main/keychain/secretStore';
import { createTokenVault } from '../../src/main/keychain/tokenVault';

const service = process.argv[2] ?? 'probe';
let unavailableNotices = 0;
const vault = createTokenVault(createKeytarSecretStore(keytar), () => {
  unavailableNotices += 1;
});
const tokens = { accessToken: process.argv[3] ?? 'access', refreshToken: process.argv[4] ?? 'refresh' };
await vault.save(service, tokens);
const loaded = await vault.load(service);
await vault.save(service, { ...tokens, accessToken: `${tokens.accessToken}-rotated` });
process.stdout.write(JSON.stringify({ storage: vault.storage(), loaded, unavailableNotices }));
