import mermaid, { type MermaidConfig } from 'mermaid';
import createDOMPurify from 'dompurify';

/** The most edges a diagram may have (layout time grows fast); diagram.ts caps the source's length. */
const MAX_DIAGRAM_EDGES = 200;

/**
 * Mermaid for untrusted sources (a model's answer). `strict`: labels are encoded and `click`
 * (callbacks and links) is off. Labels are SVG text, not HTML in a foreignObject. Dagre lays out,
 * not ELK (a far bigger chunk, and slower). `secure` lists what a diagram's own `%%{init}%%` or
 * front-matter config may not change: the security settings and whatever feeds the stylesheet or
 * labels.
 */
const CONFIG: MermaidConfig = {
  startOnLoad: false,
  securityLevel: 'strict',
  htmlLabels: false,
  flowchart: { htmlLabels: false },
  layout: 'dagre',
  theme: 'default',
  maxEdges: MAX_DIAGRAM_EDGES,
  suppressErrorRendering: true,
  secure: [
    'secure',
    'securityLevel',
    'startOnLoad',
    'maxTextSize',
    'maxEdges',
    'suppressErrorRendering',
    'htmlLabels',
    'flowchart',
    'layout',
    'themeCSS',
    'themeVariables',
    'fontFamily',
    'altFontFamily',
    'dompurifyConfig',
  ],
};
mermaid.initialize(CONFIG);

/** Mermaid's SVG through a DOMPurify instance of its own: the SVG profile, no links, no foreignObject (HTML inside SVG), no images. */
const purifier = createDOMPurify(window);
export const sanitizeSvg = (svg: string) =>
  purifier.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, FORBID_TAGS: ['a', 'foreignObject', 'image', 'use'] });

let sequence = 0;

/** The diagram as sanitized SVG markup, or null when Mermaid cannot read or draw it. */
export async function mermaidToSvg(source: string): Promise<string | null> {
  sequence += 1;
  try {
    if (!(await mermaid.parse(source, { suppressErrors: true }))) return null;
    const { svg } = await mermaid.render(`chat-diagram-${sequence}`, source);
    return sanitizeSvg(svg);
  } catch {
    return null;
  }
}
