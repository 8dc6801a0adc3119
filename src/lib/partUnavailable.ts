// What the person is told when a part of the app's code cannot load: the page was not served by the
// service worker yet (a first visit) and its server stopped answering. Said the same for a page, a
// dialog (app/lazy/partUnavailable.tsx) and a command (client/lazyCommands.ts).

/** Why a part cannot be shown or done: said to the person as it is. */
export const PART_UNAVAILABLE =
  'This part of Iris is not on this device yet, and its server did not send it. Try again once you are connected.';
