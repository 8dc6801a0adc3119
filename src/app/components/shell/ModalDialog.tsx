import { useBackCloses } from './backCloses';
import { keepTabInside } from './focusTrap';
import { createEffect, createUniqueId, onCleanup, type JSX } from 'solid-js';
import './ModalDialog.css';

interface ModalDialogProps {
  open: boolean;
  /** Visible heading; also the dialog's accessible name. */
  title: string;
  onClose: () => void;
  children: JSX.Element;
  class?: string;
}

/**
 * A centred modal dialog (a bottom sheet on phones) on the native <dialog>: the page behind is
 * inert, Escape closes, focus returns to the opener. The first field (or [autofocus]) gets focus.
 */
export function ModalDialog(props: ModalDialogProps) {
  let dialog!: HTMLDialogElement;
  let opener: Element | null = null;
  const titleId = createUniqueId();

  createEffect(() => {
    if (props.open && !dialog.open) {
      opener = document.activeElement;
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  });

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
      class={props.class ? `modal ${props.class}` : 'modal'}
      aria-labelledby={titleId}
      onKeyDown={(e) => keepTabInside(dialog, e)}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
      onClose={() => {
        if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
        opener = null;
        if (props.open) props.onClose();
      }}
    >
      <h2 id={titleId} class="modal-title" dir="auto">
        {props.title}
      </h2>
      {props.children}
    </dialog>
  );
}
