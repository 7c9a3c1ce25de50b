import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Input } from '@mantine/core';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Markdown } from '@tiptap/markdown';
import '@mantine/tiptap/styles.css';
import { useTranslation } from 'react-i18next';
import { useRovingToolbar } from './useRovingToolbar';

interface MarkdownEditorProps {
  /** Accessible name of the text area (there is no visible label above it). */
  label: string;
  initialMarkdown: string;
  onChange: (markdown: string) => void;
  /** Shown under the editor and tied to its text area (aria-invalid, aria-describedby). */
  error?: ReactNode;
}

/** Translated labels of the toolbar controls this editor shows. */
function useEditorLabels(): Partial<RichTextEditorLabels> {
  const { t: label } = useTranslation('common', { keyPrefix: 'editor' });
  return {
    boldControlLabel: label('bold'),
    italicControlLabel: label('italic'),
    strikeControlLabel: label('strike'),
    codeControlLabel: label('code'),
    h2ControlLabel: label('h2'),
    h3ControlLabel: label('h3'),
    h4ControlLabel: label('h4'),
    h5ControlLabel: label('h5'),
    bulletListControlLabel: label('bullet_list'),
    orderedListControlLabel: label('ordered_list'),
    blockquoteControlLabel: label('blockquote'),
    codeBlockControlLabel: label('code_block'),
    linkControlLabel: label('link'),
    unlinkControlLabel: label('unlink'),
    undoControlLabel: label('undo'),
    redoControlLabel: label('redo'),
    linkEditorInputLabel: label('link_input'),
    linkEditorInputPlaceholder: label('link_placeholder'),
    linkEditorExternalLink: label('link_external'),
    linkEditorInternalLink: label('link_internal'),
    linkEditorSave: label('link_save'),
  };
}

/** The text area's attributes; an error makes it invalid and described by the error's text. */
function textAreaAttributes(label: string, errorId: string | null): Record<string, string> {
  const base = { role: 'textbox', 'aria-multiline': 'true', 'aria-label': label, 'data-autofocus': 'true' };
  return errorId ? { ...base, 'aria-invalid': 'true', 'aria-describedby': errorId } : base;
}

/**
 * Rich text editing stored as markdown (@tiptap/markdown): headings 2–5, lists, quotes, links,
 * inline code and code blocks, with a toolbar. The toolbar is one Tab stop with arrow keys inside;
 * the text area is a named multi-line text box that a dialog focuses first (data-autofocus), and
 * that takes focus itself when it appears in a dialog already open (it is loaded on demand).
 */
export function MarkdownEditor({ label, initialMarkdown, onChange, error }: MarkdownEditorProps) {
  const { t } = useTranslation('common');
  const labels = useEditorLabels();
  const toolbar = useRef<HTMLDivElement>(null);
  useRovingToolbar(toolbar);
  const errorId = useId();
  const describedBy = error ? errorId : null;
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3, 4, 5] }, link: { openOnClick: false } }), Markdown],
    content: initialMarkdown,
    contentType: 'markdown',
    immediatelyRender: true,
    autofocus: true,
    editorProps: { attributes: textAreaAttributes(label, describedBy) },
    onUpdate: ({ editor: current }) => onChange(current.getMarkdown()),
  });
  // The editor is created once; its text area's attributes follow the label and error afterwards.
  useEffect(() => {
    editor.setOptions({ editorProps: { attributes: textAreaAttributes(label, describedBy) } });
  }, [editor, label, describedBy]);

  return (
    <div>
      <RichTextEditor editor={editor} labels={labels} data-testid="markdown-editor">
        <RichTextEditor.Toolbar ref={toolbar} role="toolbar" aria-label={t('editor.toolbar')} sticky stickyOffset={0}>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.Code />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.H4 />
            <RichTextEditor.H5 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
            <RichTextEditor.CodeBlock />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={220} />
      </RichTextEditor>
      {error && (
        <Input.Error id={errorId} mt={6}>
          {error}
        </Input.Error>
      )}
    </div>
  );
}
