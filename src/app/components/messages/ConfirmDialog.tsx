import { createEffect, createUniqueId } from 'solid-js';
import { useBackCloses } from '../shell/backCloses';
import './ConfirmDialog.css';

/** A modal question with a confirm and a cancel button (the browser's <dialog>: focus trap, Escape). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  let dialog!: HTMLDialogElement;
  const titleId = createUniqueId();
  const bodyId = createUniqueId();
  createEffect(() => {
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  });
  // While open, Back cancels it (not the lane under it).
  createEffect(() => {
    if (props.open) useBackCloses(() => props.onCancel());
  });
  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={() => props.open && props.onCancel()}
    >
      <h2 id={titleId}>{props.title}</h2>
      <p id={bodyId}>{props.body}</p>
      <div class="confirm-actions">
        <button type="button" class="button secondary" onClick={() => props.onCancel()} autofocus>
          Cancel
        </button>
        <button type="button" class="button" classList={{ danger: props.danger }} onClick={() => props.onConfirm()}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
