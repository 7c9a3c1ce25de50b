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

export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'audio', 'video', 'source', 'track'],
    ADD_ATTR: ['target'],
  });
}
