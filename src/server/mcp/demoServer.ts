import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { clock } from '../clock';
import { type ServedMcp, serveMcpOnLoopback } from './httpServer';

/** The path the demo MCP server answers on; the demo tenant's row is found by it at every start. */
export const DEMO_MCP_PATH = '/demo-mcp';
export const DEMO_MCP_NAME = 'Demo tools';
export const DEMO_MCP_DESCRIPTION = 'A clock and a unit converter, served by this server on 127.0.0.1 for the demo.';

type Unit = { kind: 'length' | 'mass'; factor: number } | { kind: 'temperature' };

/** Length in metres, mass in kilograms; temperatures convert through kelvin. */
const UNITS: Record<string, Unit> = {
  mm: { kind: 'length', factor: 0.001 },
  cm: { kind: 'length', factor: 0.01 },
  m: { kind: 'length', factor: 1 },
  km: { kind: 'length', factor: 1000 },
  in: { kind: 'length', factor: 0.0254 },
  ft: { kind: 'length', factor: 0.3048 },
  yd: { kind: 'length', factor: 0.9144 },
  mi: { kind: 'length', factor: 1609.344 },
  mg: { kind: 'mass', factor: 0.000001 },
  g: { kind: 'mass', factor: 0.001 },
  kg: { kind: 'mass', factor: 1 },
  t: { kind: 'mass', factor: 1000 },
  oz: { kind: 'mass', factor: 0.028349523125 },
  lb: { kind: 'mass', factor: 0.45359237 },
  C: { kind: 'temperature' },
  F: { kind: 'temperature' },
  K: { kind: 'temperature' },
};
const UNIT_NAMES = Object.keys(UNITS) as [string, ...string[]];

const toKelvin = (value: number, unit: string) => (unit === 'C' ? value + 273.15 : unit === 'F' ? ((value - 32) * 5) / 9 + 273.15 : value);
const fromKelvin = (value: number, unit: string) => (unit === 'C' ? value - 273.15 : unit === 'F' ? ((value - 273.15) * 9) / 5 + 32 : value);

/** `value` in `from` expressed in `to`, or null when the two measure different things. */
export function convertUnits(value: number, from: string, to: string): number | null {
  const source = UNITS[from];
  const target = UNITS[to];
  if (!source || !target || source.kind !== target.kind) return null;
  if (source.kind === 'temperature') return fromKelvin(toKelvin(value, from), to);
  return (value * source.factor) / (target as { factor: number }).factor;
}

/** The time now in an IANA time zone, e.g. `2026-11-26 19:04:05 (Asia/Seoul, GMT+9)`, or null for an unknown zone. */
export function timeIn(timeZone: string, at: Date): string | null {
  try {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'shortOffset',
    }).formatToParts(at);
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} (${timeZone}, ${part('timeZoneName')})`;
  } catch {
    return null;
  }
}

const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError } : {}) });

/** The demo's MCP server: two tools any newcomer can try without a key. */
export function buildDemoMcpServer(): McpServer {
  const server = new McpServer({ name: 'demo-tools', version: '1.0.0' });
  server.registerTool(
    'current_time',
    {
      description: 'The current date and time in a time zone.',
      inputSchema: { time_zone: z.string().max(64).default('UTC').describe('An IANA time zone, e.g. Asia/Seoul or Europe/Paris') },
    },
    ({ time_zone }) => {
      const shown = timeIn(time_zone, clock.now());
      return shown ? text(shown) : text(`Unknown time zone: ${time_zone}`, true);
    },
  );
  server.registerTool(
    'convert_units',
    {
      description: 'Converts a length (mm, cm, m, km, in, ft, yd, mi), a mass (mg, g, kg, t, oz, lb) or a temperature (C, F, K).',
      inputSchema: { value: z.number().finite(), from: z.enum(UNIT_NAMES), to: z.enum(UNIT_NAMES) },
    },
    ({ value, from, to }) => {
      const converted = convertUnits(value, from, to);
      if (converted === null) return text(`${from} and ${to} do not measure the same thing.`, true);
      return text(`${value} ${from} = ${Number(converted.toPrecision(10))} ${to}`);
    },
  );
  return server;
}

/** Started by the server process (src/server/index.ts) with the demo tenant, on 127.0.0.1 only. */
export function startDemoMcpServer(): Promise<ServedMcp> {
  return serveMcpOnLoopback(buildDemoMcpServer, { path: DEMO_MCP_PATH });
}
