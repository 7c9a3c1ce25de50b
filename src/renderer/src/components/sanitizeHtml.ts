import createDOMPurify from 'dompurify';

/**
 * The one HTML sanitizer of the app (chat answers, announcements): no script, handler, form or
 * javascript: URL survives, and links open in a new window without an opener. No audio or video
 * either: the CSP lets media come from any https origin (for video policies), which a <video> in a
 * chat answer would turn into a beacon. A private DOMPurify
 * instance, so the link hook cannot leak into other users of the library.
 */
const purifier = createDOMPurify(window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  // Code blocks and tables scroll sideways in their own frame when wide: a keyboard user scrolls
  // them once they can take focus (WCAG 2.1.1, axe's scrollable-region-focusable).
  if (node.tagName === 'PRE' || node.tagName === 'TABLE') node.setAttribute('tabindex', '0');
});

/**
 * The inline style KaTeX gives a formula's parts (sizes, shifts, rules, colours) and formatted text
 * needs, and nothing that lifts a box out of the page's flow: raw HTML in an answer could otherwise
 * lay a fixed, full-window box over the app ("Session expired, sign in here"), whatever the model
 * was made to write. So `position` only as `relative` (a shift within the text), and no z-index,
 * inset, transform, background image or other URL.
 */
const STYLE_PROPERTIES = new Set(
  [
    'color',
    'background-color',
    'text-align',
    'text-shadow',
    'vertical-align',
    'font-style',
    'font-weight',
    'height',
    'width',
    'min-width',
    'max-width',
    'top',
    'left',
    'bottom',
    'padding-left',
    'padding-right',
  ].concat(['top', 'right', 'bottom', 'left'].flatMap((side) => [`margin-${side}`, `border-${side}-width`, `border-${side}-style`, `border-${side}-color`])),
);
const allowedStyle = (property: string, value: string) =>
  (property === 'position' ? value === 'relative' : STYLE_PROPERTIES.has(property)) && !/url\(|expression\(|image-set\(/i.test(value);

purifier.addHook('uponSanitizeAttribute', (node, data) => {
  if (data.attrName !== 'style' || !(node instanceof HTMLElement)) return;
  const { style } = node;
  const kept = Array.from(style)
    .filter((property) => allowedStyle(property, style.getPropertyValue(property)))
    .map((property) => `${property}: ${style.getPropertyValue(property)}`);
  if (kept.length === 0) data.keepAttr = false;
  else data.attrValue = kept.join('; ');
});

export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'audio', 'video', 'source', 'track'],
    ADD_ATTR: ['target'],
  });
}
