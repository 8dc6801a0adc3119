import { Show } from 'solid-js';
import { formatBytes } from '../../../lib/format';
import type { MediaRow } from '../../../store/schema';
import { MediaFetch, type FetchMode } from './MediaFetch';
import { MediaIcon } from './MediaIcon';

/** "pdf", "zip"…: the extension, as people know a file's type. */
function fileType(row: MediaRow): string {
  const ext = /\.([a-z0-9]{1,8})$/i.exec(row.filename)?.[1];
  if (ext) return ext.toUpperCase();
  const sub = row.mime.split('/')[1];
  return sub && sub !== 'octet-stream' ? sub.toUpperCase() : 'File';
}

/** A file in a message: icon, name, size and a download (saved under its own name). */
export function DocumentChip(props: {
  row: MediaRow;
  src: string | undefined;
  mode: FetchMode;
  onDownload: () => void;
}) {
  return (
    <div class="doc-chip">
      <span class="doc-icon">
        <MediaIcon name="file" />
      </span>
      <span class="doc-text">
        <span class="doc-name" title={props.row.filename}>
          {props.row.filename}
        </span>
        <span class="doc-meta">
          {formatBytes(props.row.size)} · {fileType(props.row)}
        </span>
      </span>
      <Show
        when={props.src}
        fallback={
          <MediaFetch
            row={props.row}
            mode={props.mode}
            label={props.row.filename}
            onDownload={props.onDownload}
            compact
          />
        }
      >
        <a class="doc-save" href={props.src} download={props.row.filename} aria-label={`Save ${props.row.filename}`}>
          <MediaIcon name="download" />
        </a>
      </Show>
    </div>
  );
}
