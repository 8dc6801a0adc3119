import { createEffect, createMemo, on } from 'solid-js';
import { renderMarkdown, renderMarkdownCached } from '../../../lib/markdown';
import { highlightCodeIn } from '../../../lib/highlight';
import { copyText } from './copyText';
import './Markdown.css';

/**
 * Untrusted Markdown, rendered through `renderMarkdown` (the only HTML ever put in `innerHTML`).
 * Code blocks get highlighted once the text is final and a working "Copy code" button.
 */
export function Markdown(props: { text: string; final?: boolean; class?: string }) {
  let root!: HTMLDivElement;
  const html = createMemo(() => (props.final === false ? renderMarkdown(props.text) : renderMarkdownCached(props.text)));

  createEffect(
    on([html, () => props.final !== false], ([, final]) => {
      // Re-highlighting on every streamed update would be wasted work: wait for the final text.
      if (final) void highlightCodeIn(root);
    }),
  );

  const onClick = async (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-md-copy]');
    if (!button || !root.contains(button)) return;
    const code = button.closest('.md-code')?.querySelector('pre code');
    const ok = await copyText(code?.textContent ?? '');
    button.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => {
      if (button.isConnected) button.textContent = 'Copy code';
    }, 1500);
  };

  return <div ref={root} class={`md ${props.class ?? ''}`} innerHTML={html()} onClick={onClick} />;
}
