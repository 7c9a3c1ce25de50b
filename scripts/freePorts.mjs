// A free loopback port with the next two free as well: the end-to-end server's, then its search
// fake's and its mail sink's. Imported by scripts/test.mjs; run as a script (by playwright.config.ts,
// whose config must be synchronous) it prints one.
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const listen = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: taken } = server.address();
      server.close(() => resolve(taken));
    });
  });

export async function freePortTriplet() {
  for (;;) {
    const base = await listen(0);
    if (base && base < 65_000 && (await listen(base + 1)) && (await listen(base + 2))) return base;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await freePortTriplet());
