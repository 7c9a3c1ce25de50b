import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testConfig } from '../config';
import { createOutboundGuard } from '../net/outboundGuard';
import { createMcpConnector } from './connector';
import { convertUnits, startDemoMcpServer, timeIn } from './demoServer';
import type { ServedMcp } from './httpServer';

describe('the demo MCP server', () => {
  let demo: ServedMcp;
  beforeAll(async () => {
    demo = await startDemoMcpServer();
  });
  afterAll(() => demo.close());

  it('converts lengths, masses and temperatures, and refuses mixing them', () => {
    expect(convertUnits(1, 'mi', 'km')).toBeCloseTo(1.609344, 9);
    expect(convertUnits(2, 'lb', 'g')).toBeCloseTo(907.18474, 6);
    expect(convertUnits(100, 'C', 'F')).toBeCloseTo(212, 9);
    expect(convertUnits(0, 'K', 'C')).toBeCloseTo(-273.15, 9);
    expect(convertUnits(1, 'kg', 'm')).toBeNull();
  });

  it('tells the time in an IANA zone, and says so for an unknown one', () => {
    const at = new Date('2026-11-26T10:04:05Z');
    expect(timeIn('Asia/Seoul', at)).toBe('2026-11-26 19:04:05 (Asia/Seoul, GMT+9)');
    expect(timeIn('Mars/Olympus', at)).toBeNull();
  });

  it('answers on 127.0.0.1 only, and its tools work through the SDK client', async () => {
    expect(new URL(demo.url).hostname).toBe('127.0.0.1');
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(demo.url)));
    try {
      const converted = await client.callTool({ name: 'convert_units', arguments: { value: 10, from: 'km', to: 'mi' } });
      expect(converted.content).toEqual([{ type: 'text', text: '10 km = 6.213711922 mi' }]);
      const unknown = await client.callTool({ name: 'current_time', arguments: { time_zone: 'Nowhere/Land' } });
      expect(unknown).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });

  it('is reached past the outbound guard, which still refuses any other loopback address', async () => {
    const config = testConfig({ OUTBOUND_ALLOW: [] });
    const outbound = createOutboundGuard({ config });
    const mcp = createMcpConnector({ outbound, config, demoMcp: { url: demo.url, tenant: 'demo' } });
    const target = { url: demo.url, secretKind: 'none' as const, secretHeaderName: '', secret: '' };
    expect((await mcp.listTools(target)).map((tool) => tool.name)).toEqual(['current_time', 'convert_units']);
    const elsewhere = new URL(demo.url);
    elsewhere.pathname = '/other';
    elsewhere.hostname = 'localhost';
    await expect(mcp.listTools({ ...target, url: elsewhere.href })).rejects.toMatchObject({ code: 'destination_refused' });
  });
});
