/**
 * `npm run dev`: the Vite dev server for the web client and the API server in watch mode, side by
 * side. Output is prefixed per process; Ctrl+C (or either process exiting) stops both.
 */
import { spawn } from 'node:child_process';

const processes = [
  { name: 'web', command: 'npx', args: ['vite', '--config', 'vite.web.config.ts'] },
  { name: 'api', command: 'npx', args: ['tsx', 'watch', '--clear-screen=false', 'src/server/index.ts'] },
];

let stopping = false;
const children = processes.map(({ name, command, args }) => {
  // Own process group, so that stopping reaches the real node processes behind npx and tsx watch.
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env, detached: true });
  const prefix = `[${name}] `;
  const forward = (target) => {
    let pending = '';
    return (chunk) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) target.write(`${prefix}${line}\n`);
    };
  };
  child.stdout.on('data', forward(process.stdout));
  child.stderr.on('data', forward(process.stderr));
  child.on('exit', (code, signal) => {
    console.log(`${prefix}exited (${signal ?? code})`);
    stopAll(code ?? 0);
  });
  return child;
});

function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // The group is already gone.
    }
  }
  setTimeout(() => process.exit(exitCode), 500).unref();
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
