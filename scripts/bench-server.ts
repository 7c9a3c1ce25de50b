/**
 * `npm run bench:server`: concurrent chat streams against the real server (PGlite) with the fake
 * OpenAI-compatible upstream on loopback at a fixed per-token delay. Prints the latency the server
 * adds to the first token (client time to first token minus the upstream's own) and streams per
 * second. Figures only; nothing is asserted.
 *
 * BENCH_STREAMS (default 200), BENCH_CONCURRENCY (default 20), BENCH_TOKEN_DELAY_MS (default 20),
 * BENCH_TOKENS (default 20), BENCH_MAX_SECONDS (default 60).
 */
import { performance } from 'node:perf_hooks';
import { startFakeLlmUpstream } from '../tests/fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, startTestServer } from '../tests/fixtures/testServer';

const envInt = (name: string, fallback: number) => {
  const value = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const STREAMS = envInt('BENCH_STREAMS', 200);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const TOKEN_DELAY_MS = envInt('BENCH_TOKEN_DELAY_MS', 20);
const TOKENS = envInt('BENCH_TOKENS', 20);
const MAX_SECONDS = envInt('BENCH_MAX_SECONDS', 60);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface StreamResult {
  text: string;
  clientTtft: number;
  total: number;
}

async function main(): Promise<void> {
  const upstream = await startFakeLlmUpstream({ chunks: Array.from({ length: TOKENS }, (_, i) => `tok${i} `), delayMs: TOKEN_DELAY_MS });
  const server = await startTestServer({ database: 'pglite', llm: { baseUrl: upstream.baseUrl } });
  try {
    const signIn = await fetch(`${server.apiBase}/auth/sign-in/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
      body: JSON.stringify(DEMO_MEMBER),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const bots = (await (await fetch(`${server.apiBase}/chatbots/?include_default=true`, { headers: { 'x-access-token': token } })).json()) as {
      items: { id: number; llm_model: { is_low_llm: boolean } }[];
    };
    // The unlimited low-cost chatbot, so that credits never run out mid-benchmark.
    const chatbotId = bots.items.find((bot) => bot.llm_model.is_low_llm)!.id;

    async function stream(index: number): Promise<StreamResult> {
      const text = `bench-${index}`;
      const started = performance.now();
      const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': token },
        body: JSON.stringify({ text }),
      });
      if (response.status !== 200) throw new Error(`chat answered ${response.status}`);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let seen = '';
      let firstTokenAt: number | null = null;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
        if (firstTokenAt === null && seen.includes('"type":"text"')) firstTokenAt = performance.now();
      }
      return { text, clientTtft: (firstTokenAt ?? performance.now()) - started, total: performance.now() - started };
    }

    const results: StreamResult[] = [];
    const deadline = performance.now() + MAX_SECONDS * 1000;
    let next = 0;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < STREAMS && performance.now() < deadline) results.push(await stream(next++));
      }),
    );
    const elapsedSeconds = (performance.now() - began) / 1000;

    // Upstream's own time to first token for the same request, matched by the message text.
    const upstreamTtft = new Map<string, number>();
    for (const request of upstream.requests) {
      const last = request.body.messages?.at(-1)?.content;
      if (typeof last === 'string' && request.firstChunkAt !== null) upstreamTtft.set(last, request.firstChunkAt - request.receivedAt);
    }
    const added = results
      .map((result) => result.clientTtft - (upstreamTtft.get(result.text) ?? Number.NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const totals = results.map((result) => result.total).sort((a, b) => a - b);

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`bench:server  ${results.length} streams, concurrency ${CONCURRENCY}, ${TOKENS} tokens at ${TOKEN_DELAY_MS} ms/token (PGlite, loopback)`);
    console.log(`  added latency to first token  p50 ${ms(percentile(added, 50))}  p99 ${ms(percentile(added, 99))}`);
    console.log(`  whole stream                  p50 ${ms(percentile(totals, 50))}  p99 ${ms(percentile(totals, 99))}`);
    console.log(`  throughput                    ${(results.length / elapsedSeconds).toFixed(1)} streams/s over ${elapsedSeconds.toFixed(1)} s`);
  } finally {
    await server.close();
    await upstream.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
