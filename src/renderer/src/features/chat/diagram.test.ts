import { describe, expect, it } from 'vitest';
import { diagramTitle } from './diagram';

describe('diagramTitle', () => {
  it('names a diagram by its accessible title, else its title, else its first line', () => {
    expect(diagramTitle('flowchart LR\n  accTitle: Sign-in flow\n  A --> B')).toBe('Sign-in flow');
    expect(diagramTitle('---\ntitle: Order states\n---\nstateDiagram-v2\n  [*] --> Paid')).toBe('Order states');
    expect(diagramTitle('pie title Pets adopted\n  "Dogs" : 386')).toBe('Pets adopted');
    expect(diagramTitle('%% a comment\n\nsequenceDiagram\n  Alice->>Bob: Hi')).toBe('sequenceDiagram');
  });
});
