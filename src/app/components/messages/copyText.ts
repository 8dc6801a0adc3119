import { createSignal, type Accessor } from 'solid-js';

// Copying to the clipboard, with a fallback where the async Clipboard API is refused.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/**
 * A Copy button's words: `idle`, then "Copied" or "Copy failed" for 1.5 s after `copy` (the code block's
 * and the tool output's; the Markdown's inner code blocks are HTML and say it on their own button).
 */
export function createCopyLabel(idle: string): [Accessor<string>, (text: string) => Promise<void>] {
  const [label, setLabel] = createSignal(idle);
  const copy = async (text: string) => {
    setLabel((await copyText(text)) ? 'Copied' : 'Copy failed');
    setTimeout(() => setLabel(idle), 1500);
  };
  return [label, copy];
}
