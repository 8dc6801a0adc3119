// The composer's attachments: files from the picker, the clipboard, a drop or a recording are stored
// at once (so a reload keeps them: they come back as chips), refused in words when too large.
import { createSignal, onCleanup, onMount, type Accessor, type Setter } from 'solid-js';
import { stagedAttachments } from '../../../store/models/media';
import { baseMime } from '../../../protocol/mime';
import type { Recording } from '../../../media/recorder';
import { useIris } from '../../../runtime';
import { startWhenIdle, type ServiceLoad } from '../../startWhenIdle';

export interface ComposerMediaOptions {
  lane: string;
  attachments: Accessor<string[]>;
  setAttachments: Setter<string[]>;
  /** Shows a sentence under the composer ('' clears it). */
  setError: (message: string) => void;
}

export interface ComposerMedia {
  addFiles(files: readonly File[]): Promise<void>;
  /** How many additions (files, a recording, the chips kept over a reload) are still being stored. */
  adding: Accessor<number>;
  /** Resolves once every addition started so far has been stored or refused. */
  added(): Promise<void>;
  addRecording(recording: Recording): Promise<void>;
  remove(mediaId: string): void;
  /** The textbox's paste: pictures (files) on the clipboard are attached. */
  onPaste(event: ClipboardEvent): void;
  /** Files are being dragged over the page. */
  dragging: Accessor<boolean>;
}

/**
 * This window's media machinery (background downloads, the worker's requests, settling sent files)
 * starts in the first idle moment after a lane is shown (startWhenIdle.ts): the lane does not need it
 * to open, and a picture on screen starts it itself (MediaView.tsx).
 */
const loadMediaPuller: ServiceLoad = () => import('../../../media/runtime').then((m) => m.startMediaPuller);

/** Storing attachments (media/outgoing.ts) loads with the first one; fetched when the lane is idle (Composer.tsx). */
export const loadOutgoing = () => import('../../../media/outgoing');

function words(error: unknown, refused: (new (message: string) => Error) | undefined): string {
  if (refused && error instanceof refused) return error.message;
  return 'That file could not be attached. Try again.';
}

export function useComposerMedia(options: ComposerMediaOptions): ComposerMedia {
  const iris = useIris();
  const { db } = iris;
  const { lane } = options;
  const [dragging, setDragging] = createSignal(false);

  const add = (ids: string[]) => options.setAttachments((prev) => [...prev, ...ids.filter((id) => !prev.includes(id))]);

  // A file is a chip only once it is stored (the chunk that stores it may load first): Send waits for
  // those on their way, or a message sent right after choosing a picture went without it.
  const pending = new Set<Promise<void>>();
  const [adding, setAdding] = createSignal(0);
  const tracked =
    <A extends unknown[]>(work: (...args: A) => Promise<void>) =>
    (...args: A): Promise<void> => {
      const done = work(...args);
      pending.add(done);
      setAdding(pending.size);
      const settle = () => {
        pending.delete(done);
        setAdding(pending.size);
      };
      done.then(settle, settle);
      return done;
    };
  async function added(): Promise<void> {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  }

  const addFiles = tracked(async (files: readonly File[]): Promise<void> => {
    const refused: string[] = [];
    const added: string[] = [];
    // Not loaded (the server away on a first visit): each file is refused in words below.
    const outgoing = await loadOutgoing().catch(() => undefined);
    for (const file of files) {
      try {
        if (!outgoing) throw new Error('not loaded');
        added.push((await outgoing.stageAttachment(db, file, { lane })).media_id);
      } catch (err) {
        refused.push(words(err, outgoing?.AttachmentRefusedError));
      }
    }
    add(added);
    options.setError(refused.join(' '));
  });

  const addRecording = tracked(async (recording: Recording): Promise<void> => {
    let outgoing: Awaited<ReturnType<typeof loadOutgoing>> | undefined;
    try {
      outgoing = await loadOutgoing();
      const row = await outgoing.stageAttachment(db, recording.blob, {
        lane,
        recorded: true,
        duration: recording.duration,
        filename: outgoing.voiceFilename(baseMime(recording.blob.type) || 'audio/webm'),
      });
      add([row.media_id]);
      options.setError('');
    } catch (err) {
      options.setError(words(err, outgoing?.AttachmentRefusedError));
    }
  });

  function remove(mediaId: string): void {
    options.setAttachments((prev) => prev.filter((id) => id !== mediaId));
    void loadOutgoing().then((m) => m.unstageAttachment(db, mediaId));
  }

  function onPaste(event: ClipboardEvent): void {
    const files = Array.from(event.clipboardData?.files ?? []);
    if (files.length === 0) return;
    // A picture copied from a page also carries text (its address): the picture is what was meant.
    event.preventDefault();
    void addFiles(files);
  }

  onMount(() => {
    onCleanup(startWhenIdle(iris, loadMediaPuller, 2000));
    // Attachments stored before a reload come back.
    void tracked(async () => {
      add((await stagedAttachments(db, lane)).map((r) => r.media_id));
    })();

    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      void addFiles(Array.from(e.dataTransfer?.files ?? []));
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    onCleanup(() => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    });
  });

  return { addFiles, adding, added, addRecording, remove, onPaste, dragging };
}
