// The app's own toasts (errors of actions the user took) go through the same table as the
// gateway's notifications, so one component shows both.
import type { IrisDB } from '../../../store/db';
import { ERROR_TOAST_KIND, addToast } from '../../../store/models/toasts';

export { ERROR_TOAST_KIND };

function words(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong. Try again.';
}

/** Shows what failed and why, in words; never throws. */
export function showErrorToast(db: IrisDB, what: string, error: unknown): void {
  void addToast(db, { kind: ERROR_TOAST_KIND, title: what, body: words(error), ts: Date.now() }).catch((err: unknown) =>
    console.warn('iris:', what, error, '(and the toast could not be stored)', err),
  );
}
