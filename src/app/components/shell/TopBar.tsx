import { useLocation, useNavigate } from '@solidjs/router';
import { Show } from 'solid-js';
import { Icon } from './Icon';
import { laneFromPath } from './laneRoute';
import './TopBar.css';

interface TopBarProps {
  title: string;
  /** A text icon (emoji) shown before the title; rendered as text. */
  icon?: string;
  /** Phones only: opens the channel drawer. */
  onMenu?: () => void;
  menuExpanded?: boolean;
  menuRef?: (el: HTMLButtonElement) => void;
}

/** The bar above every page: the drawer button (phones), the page or lane title, Search and Settings. */
export function TopBar(props: TopBarProps) {
  const navigate = useNavigate();
  const location = useLocation();
  // Search offers "this chat" for the lane it was opened from.
  const searchPath = () => {
    const lane = laneFromPath(location.pathname)?.lane;
    return lane ? `/search?lane=${encodeURIComponent(lane)}` : '/search';
  };
  return (
    <header class="topbar">
      <Show when={props.onMenu}>
        <button
          ref={(el) => props.menuRef?.(el)}
          type="button"
          class="icon-button"
          aria-label="Channels"
          aria-haspopup="dialog"
          aria-expanded={props.menuExpanded ?? false}
          onClick={() => props.onMenu?.()}
        >
          <Icon name="menu" />
        </button>
      </Show>
      <h1 class="topbar-title">
        <Show when={props.icon}>
          <span class="topbar-icon" aria-hidden="true">
            {props.icon}
          </span>
        </Show>
        <span class="topbar-title-text">{props.title}</span>
      </h1>
      <div class="topbar-actions">
        <button type="button" class="icon-button" aria-label="Search" onClick={() => navigate(searchPath())}>
          <Icon name="search" />
        </button>
        <button type="button" class="icon-button" aria-label="Settings" onClick={() => navigate('/settings')}>
          <Icon name="settings" />
        </button>
      </div>
    </header>
  );
}
