import { Show, createSignal, createUniqueId, onCleanup, onMount } from 'solid-js';
import { MediaIcon } from './MediaIcon';

/**
 * "Attach": the file picker, several files at once. On phones it first offers the camera (a photo
 * or video taken now) or files; elsewhere it opens the picker directly.
 */
export function AttachButton(props: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const [menu, setMenu] = createSignal(false);
  const menuId = createUniqueId();
  const coarse = typeof matchMedia === 'function' ? matchMedia('(pointer: coarse)') : undefined;
  let files!: HTMLInputElement;
  let camera!: HTMLInputElement;
  let wrapper!: HTMLDivElement;
  let button!: HTMLButtonElement;

  const picked = (input: HTMLInputElement) => {
    const list = Array.from(input.files ?? []);
    input.value = ''; // the same file can be chosen again
    if (list.length > 0) props.onFiles(list);
  };
  const open = () => {
    if (coarse?.matches) setMenu((m) => !m);
    else files.click();
  };

  /** The menu's items: the first takes the focus when it opens (autofocus does not, outside a dialog). */
  const items = () => Array.from(wrapper.querySelectorAll<HTMLElement>('[role="menuitem"]'));
  const close = (refocus: boolean) => {
    setMenu(false);
    if (refocus) button.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!menu()) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const list = items();
      const at = list.indexOf(document.activeElement as HTMLElement);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      list[(at + step + list.length) % list.length]?.focus();
    }
  };

  onMount(() => {
    const outside = (e: PointerEvent) => {
      if (menu() && !wrapper.contains(e.target as Node)) setMenu(false);
    };
    document.addEventListener('pointerdown', outside);
    onCleanup(() => document.removeEventListener('pointerdown', outside));
  });

  return (
    <div class="attach" ref={wrapper} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        class="composer-icon-button media-button"
        aria-label="Attach"
        aria-haspopup={coarse?.matches ? 'menu' : undefined}
        aria-expanded={coarse?.matches ? menu() : undefined}
        aria-controls={menu() ? menuId : undefined}
        disabled={props.disabled}
        onClick={open}
      >
        <MediaIcon name="attach" />
      </button>
      <Show when={menu()}>
        <div class="attach-menu" id={menuId} role="menu" ref={() => queueMicrotask(() => items()[0]?.focus())}>
          <button
            type="button"
            role="menuitem"
            class="attach-menu-item"
            onClick={() => {
              setMenu(false);
              camera.click();
            }}
          >
            <MediaIcon name="camera" />
            Take a photo or video
          </button>
          <button
            type="button"
            role="menuitem"
            class="attach-menu-item"
            onClick={() => {
              setMenu(false);
              files.click();
            }}
          >
            <MediaIcon name="attach" />
            Choose files
          </button>
        </div>
      </Show>
      <input
        ref={files}
        type="file"
        multiple
        hidden
        aria-hidden="true"
        tabindex="-1"
        onChange={(e) => picked(e.currentTarget)}
      />
      <input
        ref={camera}
        type="file"
        accept="image/*,video/*"
        capture="environment"
        hidden
        aria-hidden="true"
        tabindex="-1"
        onChange={(e) => picked(e.currentTarget)}
      />
    </div>
  );
}
