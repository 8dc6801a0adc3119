import { useBackCloses } from './backCloses';
import { keepTabInside } from './focusTrap';
import { createEffect, onCleanup, type ParentProps } from 'solid-js';
import './Drawer.css';

interface DrawerProps extends ParentProps {
  open: boolean;
  onClose: () => void;
  /** Accessible name of the drawer. */
  label: string;
}

/**
 * A modal side drawer for phones, on the native <dialog>: showModal() makes the rest of the page
 * inert (the focus trap), Escape closes it, and a tap on the backdrop closes it too. Focus goes back
 * to whatever opened it.
 */
export function Drawer(props: DrawerProps) {
  let dialog!: HTMLDialogElement;
  let opener: Element | null = null;

  createEffect(() => {
    if (props.open && !dialog.open) {
      opener = document.activeElement;
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  });

  const onDialogClose = () => {
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    opener = null;
    if (props.open) props.onClose();
  };

  // While open, Back closes it (not the page under it).
  createEffect(() => {
    if (props.open) useBackCloses(() => props.onClose());
  });

  onCleanup(() => {
    if (dialog.open) dialog.close();
  });

  return (
    <dialog
      ref={dialog}
      class="drawer"
      aria-label={props.label}
      onClose={onDialogClose}
      onKeyDown={(e) => keepTabInside(dialog, e)}
      onCancel={(e) => {
        e.preventDefault(); // Escape: close through the owner so its state stays the truth
        props.onClose();
      }}
      onClick={(e) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (e.target === dialog) props.onClose();
      }}
    >
      <div class="drawer-panel">{props.children}</div>
    </dialog>
  );
}
