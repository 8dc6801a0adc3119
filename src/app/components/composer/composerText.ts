// The composer's text on the input path. A paste into a textarea is laid out by the browser as a
// whole, and an input handler that reads the value, writes it back and measures the box runs once
// per input event (a keyboard's paste of N lines is N input events): so the value is read once per
// frame, never written back, the box grows by CSS where the browser can, and a long paste never
// enters the textbox at all. It is kept collapsed beside it (`pasted`) and sent with the message.
import { createSignal, onCleanup, onMount, type Accessor } from 'solid-js';
import type { IrisDB } from '../../../store/db';
import { getDraft, getPastedDraft } from '../../../store/models/settings';
import type { DraftWriter } from './draftWriter';
import { appendPasted, composeMessage } from './longText';
import { isLongText } from './longTextRule';

export interface ComposerText {
  /** What is in the textbox (as of the last frame, or the last `sync`). */
  text: Accessor<string>;
  /** The long text kept collapsed ('' when none). */
  pasted: Accessor<string>;
  /** Typed and pasted text together, as the message will say. */
  message(): string;
  /** Replaces the textbox's text (commands, clearing after a send, putting a failed one back). */
  setText(value: string): void;
  setPasted(value: string): void;
  /** Puts the collapsed text into the textbox to edit it there (the person asked for it). */
  expand(): void;
  /** Reads the textbox now (before a key decides what to do, or a send). */
  sync(): void;
  onInput(): void;
  /** Keeps a long pasted text out of the textbox; pictures and files are left to the media handler. */
  onPaste(event: ClipboardEvent): void;
  /** Whether the person typed or pasted anything yet (a draft loading late must not overwrite it). */
  touched(): boolean;
  /** Forgets both drafts of the lane now (sent). */
  clearDrafts(): Promise<void>;
}

/** Whether the browser grows a textarea with its content by itself (`field-sizing: content`). */
function cssAutoGrow(): boolean {
  return typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');
}

export function createComposerText(options: {
  lane: string;
  db: IrisDB;
  writer: DraftWriter;
  /** The collapsed long text's drafts. */
  pastedWriter: DraftWriter;
  textarea: () => HTMLTextAreaElement;
  /** Called when the person changes the text (clears an old error). */
  onEdit?: () => void;
}): ComposerText {
  const { lane, db, writer } = options;
  const pastedDraft = options.pastedWriter;
  const [text, setTextSignal] = createSignal('');
  const [pasted, setPastedSignal] = createSignal('');
  let touched = false;
  let frame: number | undefined;
  // While the person edits an expanded long text, it stays in the textbox.
  let editingLong = false;
  let lastLength = 0;
  const autoGrow = cssAutoGrow();

  function resize() {
    if (autoGrow) return;
    // Grow with the text up to the CSS max-height, then scroll inside (once per frame at most).
    const box = options.textarea();
    box.style.height = 'auto';
    box.style.height = `${box.scrollHeight + 2}px`;
  }

  function setPasted(value: string) {
    setPastedSignal(value);
    pastedDraft.set(lane, value);
  }

  function sync() {
    if (frame !== undefined) cancelAnimationFrame(frame);
    frame = undefined;
    const box = options.textarea();
    const value = box.value;
    // A long text that arrived without a paste event (dropped, or a keyboard's clipboard) collapses
    // too; a person typing never adds this much within one frame.
    if (!editingLong && value.length - lastLength >= 1000 && isLongText(value)) {
      box.value = '';
      setPasted(appendPasted(pasted(), value));
      store('');
      return;
    }
    store(value);
  }

  function store(value: string) {
    lastLength = value.length;
    if (value === '' && pasted() === '') editingLong = false;
    setTextSignal(value);
    writer.set(lane, value);
    resize();
  }

  function setText(value: string) {
    if (frame !== undefined) cancelAnimationFrame(frame);
    frame = undefined;
    const box = options.textarea();
    if (box.value !== value) box.value = value;
    store(value);
  }

  onMount(() => {
    const box = options.textarea();
    if (autoGrow) box.style.setProperty('field-sizing', 'content');
    // eslint-disable-next-line solid/reactivity -- the stored draft is loaded once, on mount
    void Promise.all([getDraft(db, lane), getPastedDraft(db, lane)]).then(([draft, long]) => {
      if (touched) return;
      if (long) setPastedSignal(long);
      if (draft) setText(draft);
    });
  });
  onCleanup(() => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    void pastedDraft.flush();
  });

  return {
    text,
    pasted,
    message: () => composeMessage(text(), pasted()),
    setText,
    setPasted,
    expand() {
      const whole = composeMessage(text(), pasted());
      editingLong = true;
      setPasted('');
      setText(whole);
    },
    sync,
    onInput() {
      touched = true;
      options.onEdit?.();
      frame ??= requestAnimationFrame(() => {
        frame = undefined;
        sync();
      });
    },
    onPaste(event) {
      if ((event.clipboardData?.files.length ?? 0) > 0) return;
      const value = event.clipboardData?.getData('text/plain') ?? '';
      if (!isLongText(value)) return;
      event.preventDefault();
      touched = true;
      options.onEdit?.();
      setPasted(appendPasted(pasted(), value));
    },
    touched: () => touched,
    async clearDrafts() {
      editingLong = false;
      await Promise.all([writer.clear(lane), pastedDraft.clear(lane)]);
    },
  };
}
