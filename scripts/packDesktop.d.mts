// Types of scripts/packDesktop.mjs for the TypeScript that imports it (tests/integration/desktop-bundle.test.ts).
export function packDesktop(workDir: string): Promise<string>;
