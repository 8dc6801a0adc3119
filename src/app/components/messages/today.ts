// The local day it is now, as a signal: day lines read "Today" and "Yesterday" relative to it, so a lane
// left open overnight (an installed app stays open for days) must see the day change at midnight.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import { startOfDay } from './time';

/** The start of the local day (ms), moved on at each local midnight while its owner lives. */
export function useToday(): Accessor<number> {
  const [today, setToday] = createSignal(startOfDay(Date.now()));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const start = startOfDay(Date.now());
    setToday(start);
    clearTimeout(timer);
    const midnight = new Date(start);
    midnight.setDate(midnight.getDate() + 1); // the next local midnight, whatever the day's length (DST)
    timer = setTimeout(check, midnight.getTime() - Date.now() + 50);
  };
  check();
  // A timer fires late in a sleeping phone or a frozen tab: look again whenever the page is shown.
  const onVisible = () => document.visibilityState === 'visible' && check();
  document.addEventListener('visibilitychange', onVisible);
  onCleanup(() => {
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  });
  return today;
}
