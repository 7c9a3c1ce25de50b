import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './mermaidRender';

describe('sanitizeSvg', () => {
  it('keeps the drawing and its scoped style but no script, handler, link, image or HTML island', () => {
    const svg = sanitizeSvg(
      [
        '<svg id="d1" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">',
        '<style>#d1 .node rect{fill:#eee}</style>',
        '<script>alert(2)</script>',
        '<g class="node"><rect width="5" height="5" style="fill:#eee"></rect><text>Sign in</text></g>',
        '<a href="javascript:alert(3)"><text>link</text></a>',
        '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(4)"></div></foreignObject>',
        '<image href="https://beacon.example/p.png"></image><use href="data:image/svg+xml,x#a"></use>',
        '</svg>',
      ].join(''),
    );
    expect(svg).toContain('<rect width="5" height="5" style="fill:#eee"></rect><text>Sign in</text>');
    expect(svg).toContain('<style>#d1 .node rect{fill:#eee}</style>');
    expect(svg).not.toMatch(/script|onload|onerror|javascript:|<a[\s>]|foreignObject|<img|<image|<use|beacon/);
  });
});
