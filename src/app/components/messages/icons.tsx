// Small inline icons (our own markup, decorative: every use has a text label beside or on its button).
import { DELIVERY_ICONS } from '../shell/headIconPaths';

export function ReplyIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path fill="currentColor" d="M10 9V5l-7 7 7 7v-4.1c5 0 8.5 1.6 11 5.1-1-5-4-10-11-11z" />
    </svg>
  );
}
export function CopyIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path
        fill="currentColor"
        d="M16 1H4a2 2 0 0 0-2 2v14h2V3h12V1zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11v14z"
      />
    </svg>
  );
}
export function DeleteIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path fill="currentColor" d="M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z" />
    </svg>
  );
}
/** A sent message's mark (DELIVERY_ICONS: the lane head draws the same). */
function DeliveryIcon(props: { mark: keyof typeof DELIVERY_ICONS }) {
  return (
    <svg viewBox="0 0 24 24" width={DELIVERY_ICONS[props.mark].width} height="14" aria-hidden="true">
      <path fill="currentColor" d={DELIVERY_ICONS[props.mark].d} />
    </svg>
  );
}
export function ClockIcon() {
  return <DeliveryIcon mark="pending" />;
}
export function CheckIcon(props: { double?: boolean }) {
  return <DeliveryIcon mark={props.double ? 'read' : 'sent'} />;
}
export function ToolIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <path
        fill="currentColor"
        d="M22.7 19 13.6 9.9c.9-2.3.4-5-1.5-6.9-2-2-5-2.4-7.4-1.3L9 6 6 9 1.6 4.7C.4 7.1.9 10.1 2.9 12.1c1.9 1.9 4.6 2.4 6.9 1.5l9.1 9.1c.4.4 1 .4 1.4 0l2.3-2.3c.5-.4.5-1.1.1-1.4z"
      />
    </svg>
  );
}
export function AlarmIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true">
      <path
        fill="currentColor"
        d="m22 5.7-4.6-3.9-1.3 1.5 4.6 3.9L22 5.7zM7.9 3.4 6.6 1.9 2 5.7l1.3 1.5 4.6-3.8zM12.5 8H11v6l4.7 2.9.8-1.2-4-2.4V8zM12 4a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 16a7 7 0 1 1 0-14 7 7 0 0 1 0 14z"
      />
    </svg>
  );
}
export function InfoIcon(props: { size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={props.size ?? 14} height={props.size ?? 14} aria-hidden="true">
      <path
        fill="currentColor"
        d="M11 7h2v2h-2V7zm0 4h2v6h-2v-6zm1-9a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16z"
      />
    </svg>
  );
}
