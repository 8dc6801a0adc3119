import { createUniqueId, type ParentProps } from 'solid-js';

/** A titled card on the settings page. Later issues add sections (Notifications, Storage) the same way. */
export function SettingsSection(props: ParentProps<{ title: string }>) {
  const headingId = createUniqueId();
  return (
    <section class="card settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      {props.children}
    </section>
  );
}
