// The app's own line icons (fixed paths, 24×24, currentColor). Decorative: the control names itself.
import { ICON_PATHS as PATHS, type IconName } from './iconPaths';

export function Icon(props: { name: IconName; class?: string }) {
  return (
    <svg
      class={props.class ? `icon ${props.class}` : 'icon'}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      stroke-width={props.name === 'more' ? 3 : 1.8}
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[props.name]} />
    </svg>
  );
}
