import hljs from 'highlight.js/lib/core';
import type { LanguageFn } from 'highlight.js';
import { loadOnDemand } from './onDemand';

type LanguageModule = Promise<{ default: LanguageFn }>;

/**
 * The languages of highlight.js's "common" set, each in its own chunk loaded the first time a code
 * block names it (by name or alias): the chat route does not carry ~35 grammars nobody may use.
 */
const loaders: Record<string, () => LanguageModule> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** The aliases each grammar registers, known before it is loaded. */
const aliases: Record<string, string> = {
  sh: 'bash',
  zsh: 'bash',
  h: 'c',
  cc: 'cpp',
  'c++': 'cpp',
  hpp: 'cpp',
  cxx: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  patch: 'diff',
  golang: 'go',
  gql: 'graphql',
  toml: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  mk: 'makefile',
  make: 'makefile',
  md: 'markdown',
  objc: 'objectivec',
  mm: 'objectivec',
  pl: 'perl',
  pm: 'perl',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  console: 'shell',
  shellsession: 'shell',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  vb: 'vbnet',
  html: 'xml',
  xhtml: 'xml',
  svg: 'xml',
  yml: 'yaml',
};

/** One on-demand getter per grammar, made the first time a code block names it. */
const grammars = new Map<string, () => LanguageFn | null>();

function grammar(name: string): () => LanguageFn | null {
  let get = grammars.get(name);
  if (!get) {
    get = loadOnDemand(
      () => loaders[name]!().then((module) => module.default),
      (language) => hljs.registerLanguage(name, language),
    );
    grammars.set(name, get);
  }
  return get;
}

/**
 * Highlighted HTML for `code` in `language`, or null when the language is unknown or its grammar
 * is still loading (then `subscribeOnDemand` tells once it is there).
 */
export function highlightCode(code: string, language: string): string | null {
  const name = language.toLowerCase();
  if (hljs.getLanguage(name)) return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  const grammarName = aliases[name] ?? name;
  if (grammarName in loaders) grammar(grammarName)();
  return null;
}

/** Whether a grammar for `language` exists but is not loaded yet. */
export function isGrammarPending(language: string): boolean {
  const name = language.toLowerCase();
  return !hljs.getLanguage(name) && (aliases[name] ?? name) in loaders;
}
