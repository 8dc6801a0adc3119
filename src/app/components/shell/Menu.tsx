import { For, Show, createEffect, createSignal, createUniqueId, onCleanup, type JSX } from 'solid-js';
import { useBackCloses } from './backCloses';
import { Icon } from './Icon';
import './Menu.css';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  icon?: JSX.Element;
}

interface MenuProps {
  /** Accessible name of the trigger button and of the menu, e.g. "Actions for General". */
  label: string;
  /** The trigger's own name where it shows text of its own (a count), which its name must hold. */
  triggerLabel?: string;
  items: MenuItem[];
  triggerClass?: string;
  triggerContent?: JSX.Element;
  disabled?: boolean;
  /** The menu's width in px (220). */
  width?: number;
  /**
   * Whether the trigger opens the menu (always, when absent). When it does not, the trigger is a plain
   * button that runs `onDirect`: Attach opens the file picker at once where there is no camera to offer.
   */
  opensMenu?: () => boolean;
  onDirect?: () => void;
}

/** The browser's close request (Android's Back, Escape), where it has one (Chrome 120+). */
interface CloseWatcherLike {
  onclose: (() => void) | null;
  destroy(): void;
}
type CloseWatcherConstructor = new () => CloseWatcherLike;

/**
 * A menu button (WAI-ARIA menu pattern): Enter/Space/ArrowDown open it on the first item, arrows
 * and Home/End move, Escape closes and returns focus, Tab or a click outside closes. Android's Back
 * closes it too, instead of leaving the page under it (a CloseWatcher, where the browser has one).
 * Positioned fixed from the trigger so a scrolling list cannot clip it.
 */
export function Menu(props: MenuProps) {
  const menuId = createUniqueId();
  const [open, setOpen] = createSignal(false);
  const [position, setPosition] = createSignal<JSX.CSSProperties>({});
  let trigger!: HTMLButtonElement;
  let menu: HTMLDivElement | undefined;
  let watcher: CloseWatcherLike | undefined;
  const opensMenu = () => props.opensMenu?.() ?? true;

  const items = () => (menu ? [...menu.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')] : []);
  const focusItem = (index: number) => {
    const list = items();
    if (list.length === 0) return;
    list[(index + list.length) % list.length]!.focus();
  };

  const onOutside = (event: PointerEvent) => {
    const target = event.target as Node;
    if (!menu?.contains(target) && !trigger.contains(target)) close(false);
  };

  function openMenu(focusIndex: number) {
    const rect = trigger.getBoundingClientRect();
    const width = props.width ?? 220;
    const left = Math.max(8, Math.min(rect.right - width, window.innerWidth - width - 8));
    const below = window.innerHeight - rect.bottom;
    setPosition(
      below > 280
        ? { left: `${left}px`, top: `${rect.bottom + 4}px`, width: `${width}px` }
        : { left: `${left}px`, bottom: `${window.innerHeight - rect.top + 4}px`, width: `${width}px` },
    );
    setOpen(true);
    document.addEventListener('pointerdown', onOutside, true);
    const CloseWatcher = (window as { CloseWatcher?: CloseWatcherConstructor }).CloseWatcher;
    if (CloseWatcher) {
      watcher = new CloseWatcher();
      watcher.onclose = () => close(true);
    }
    queueMicrotask(() => focusItem(focusIndex));
  }

  function close(returnFocus: boolean) {
    if (!open()) return;
    setOpen(false);
    document.removeEventListener('pointerdown', onOutside, true);
    const done = watcher;
    watcher = undefined;
    done?.destroy();
    if (returnFocus) trigger.focus();
  }

  onCleanup(() => {
    document.removeEventListener('pointerdown', onOutside, true);
    watcher?.destroy();
  });
  // While open, Back closes it where the browser has no close request (Firefox, a desktop's Back button).
  createEffect(() => {
    if (open()) useBackCloses(() => close(false));
  });

  const onMenuKey = (event: KeyboardEvent) => {
    const list = items();
    const current = list.indexOf(document.activeElement as HTMLButtonElement);
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focusItem(current + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusItem(current - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusItem(0);
        break;
      case 'End':
        event.preventDefault();
        focusItem(list.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation(); // not the drawer's Escape
        close(true);
        break;
      case 'Tab':
        // Back on the menu button, from where Tab continues in page order.
        event.preventDefault();
        close(true);
        break;
    }
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        class={props.triggerClass ?? 'icon-button'}
        aria-label={props.triggerLabel ?? props.label}
        aria-haspopup={opensMenu() ? 'menu' : undefined}
        aria-expanded={opensMenu() ? open() : undefined}
        aria-controls={open() ? menuId : undefined}
        disabled={props.disabled}
        onClick={() => {
          if (!opensMenu()) props.onDirect?.();
          else if (open()) close(false);
          else openMenu(0);
        }}
        onKeyDown={(e) => {
          if (!opensMenu()) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            openMenu(e.key === 'ArrowDown' ? 0 : -1);
          } else if (e.key === 'Escape' && open()) {
            // A tap opens the menu without moving the focus off the trigger on some phones.
            e.preventDefault();
            e.stopPropagation();
            close(true);
          }
        }}
      >
        {props.triggerContent ?? <Icon name="more" />}
      </button>
      <Show when={open()}>
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={props.label}
          class="menu"
          style={position()}
          onKeyDown={onMenuKey}
        >
          <For each={props.items}>
            {(item) => (
              <button
                type="button"
                role="menuitem"
                tabindex="-1"
                class="menu-item"
                classList={{ danger: item.danger }}
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
              >
                {item.icon}
                <span class="menu-item-label">{item.label}</span>
              </button>
            )}
          </For>
        </div>
      </Show>
    </>
  );
}
