import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, API_REFERENCE_PATH } from '../../shared/domain/http';

const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

const require = createRequire(import.meta.url);
const scalarPackage = dirname(dirname(require.resolve('@scalar/api-reference')));
const scalarVersion = (require(join(scalarPackage, 'package.json')) as { version: string }).version;
/** The versioned name lets browsers keep the 4 MB bundle for good; an upgrade changes the name. */
const SCALAR_SCRIPT_PATH = `${API_PREFIX}/docs/scalar-${scalarVersion}.js`;

/** Scalar's own interface languages (its `localization.locale`); the others read it in English. */
const SCALAR_LOCALES: Record<string, string> = { en: 'en', es: 'es', zh: 'zh-CN' };

/**
 * The app's look on Scalar's light theme: Mantine's indigo (primary shade 8) as the accent, the app's
 * greys and its system font stack (src/renderer/src/theme.tsx); no web font is loaded. Also what
 * axe finds on Scalar's own page (contrast, an unnamed button), mended here for this page only.
 */
const APP_LOOK_CSS = `
.light-mode {
  --scalar-color-1: #212529;
  --scalar-color-2: #495057;
  --scalar-color-3: #646b73;
  --scalar-color-accent: #3b5bdb;
  --scalar-background-1: #ffffff;
  --scalar-background-2: #f8f9fa;
  --scalar-background-3: #f1f3f5;
  --scalar-background-accent: #edf2ff;
  --scalar-border-color: #dee2e6;
  /* The HTTP methods' colours, dark enough for 4.5:1 on every background above (Scalar's are not). */
  --scalar-color-green: #237032;
  --scalar-color-blue: #1864ab;
  --scalar-color-red: #c92a2a;
  --scalar-color-orange: #b23c0c;
  --scalar-color-yellow: #8a6100;
  --scalar-color-purple: #862e9c;
}
/* The operations list of a tag scrolls sideways on a phone, with nothing in it to focus: wrap the paths. */
.endpoints .endpoint-path {
  white-space: normal;
  overflow-wrap: anywhere;
  min-width: 0;
}
/* A code block's copy button is named only while the block has hover or focus: name it always. */
.scalar-code-copy .sr-only > .hidden {
  display: inline;
}
:root {
  --scalar-font: Inter, "Pretendard", "Apple SD Gothic Neo", "Noto Sans KR", "Noto Sans SC", "Noto Sans JP", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  --scalar-radius: 8px;
  --scalar-radius-lg: 12px;
}
`;

/**
 * Everything that could reach past this server is off: the default fonts (a font CDN), the hosted
 * agent and MCP features and telemetry. The "test request" client sends to the document's server,
 * this origin. The app has no dark mode, so neither has its reference.
 */
function scalarConfiguration(locale: string) {
  return {
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    theme: 'default',
    customCss: APP_LOOK_CSS,
    forceDarkModeState: 'light',
    hideDarkModeToggle: true,
    // Shown on localhost by default: settings for whoever writes the document, not for its readers.
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    localization: { locale },
  };
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page: Scalar's HTML integration reads its configuration from attributes, so no inline script is needed. */
function referencePage(locale: string, title: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<script id="api-reference" type="application/json" data-url="${OPENAPI_PATH}" data-configuration="${escapeHtml(JSON.stringify(scalarConfiguration(locale)))}"></script>
<script src="${SCALAR_SCRIPT_PATH}"></script>
</body>
</html>
`;
}

/**
 * "Docs" (spec §2 navigation): the OpenAPI document rendered as an API reference with Scalar's
 * standalone bundle, served from here so it works without internet and only this page loads it;
 * the clients link to it (the desktop app opens it in the browser and ships none of it). Under the
 * site's CSP unchanged: the bundle comes from this origin and only adds style tags.
 */
export function registerApiReferenceRoutes(app: FastifyInstance, documentTitle: string): void {
  let bundle: Promise<{ plain: Buffer; gzipped: Buffer }> | undefined;
  const loadBundle = async () => {
    const plain = await readFile(join(scalarPackage, 'dist/browser/standalone.js'));
    return { plain, gzipped: await promisify(gzip)(plain) };
  };

  app.get<{ Querystring: { lang?: string } }>(`${API_PREFIX}${API_REFERENCE_PATH}`, { schema: { hide: true } }, async (request, reply) => {
    const locale = SCALAR_LOCALES[String(request.query.lang)] ?? 'en';
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(referencePage(locale, documentTitle));
  });

  app.get(SCALAR_SCRIPT_PATH, { schema: { hide: true } }, async (request, reply) => {
    // Read and compressed on the first request (about 1 MB gzipped instead of 4), then kept.
    bundle ??= loadBundle().catch((error: unknown) => {
      bundle = undefined;
      throw error;
    });
    const { plain, gzipped } = await bundle;
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding');
    if (/\bgzip\b/.test(String(request.headers['accept-encoding']))) return reply.header('content-encoding', 'gzip').send(gzipped);
    return reply.send(plain);
  });
}
