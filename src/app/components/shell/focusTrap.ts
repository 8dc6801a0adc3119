// A modal <dialog> already makes the page behind it inert, but Tab from its last control leaves for
// the browser's own UI. This keeps Tab and Shift+Tab cycling inside the dialog.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0 && !el.closest('[inert]') && el.closest('dialog') === container,
  );
}

/** Call from the dialog's keydown handler. */
export function keepTabInside(dialog: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  // A dialog opened from inside this one (a confirm over the drawer) keeps its own Tab order.
  if (event.target instanceof Element && event.target.closest('dialog') !== dialog) return;
  const list = focusables(dialog);
  if (list.length === 0) return;
  const first = list[0]!;
  const last = list[list.length - 1]!;
  const active = document.activeElement;
  const outside = !(active instanceof HTMLElement) || !dialog.contains(active);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
