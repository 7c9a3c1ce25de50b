/** `npm run admin -- <command>`: the operator's CLI (see adminCli.ts and docs/OPERATIONS.md). */
import { runAdmin } from './adminCli';

process.exitCode = await runAdmin(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
