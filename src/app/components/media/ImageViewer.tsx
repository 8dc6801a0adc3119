import { Show, createEffect, createMemo, createSignal, onCleanup, onMount } from 'solid-js';
import { formatBytes } from '../../../media/format';
import { live } from '../../../store/live';
import type { MediaRow } from '../../../store/schema';
import { iris } from '../../context';
import { laneImages } from './gallery';
import { MediaIcon } from './MediaIcon';
import { createMediaSrc } from './mediaSrc';

const ZOOMS = [1, 1.5, 2, 3, 4];
const SWIPE_PX = 50;

/**
 * Full-screen pictures of a lane (a modal dialog): zoom (buttons, +/-, double-click), the previous and
 * next picture (buttons, arrow keys, swipe), download; Escape or Close returns to the conversation.
 */
export function ImageViewer(props: { lane: string; start: string; onClose: () => void }) {
  const { db } = iris();
  const images = live(() => laneImages(db, props.lane), [] as MediaRow[]);
  const [currentId, setCurrentId] = createSignal(props.start);
  const [zoomStep, setZoomStep] = createSignal(0);
  const [stage, setStage] = createSignal({ width: 0, height: 0 });
  const index = createMemo(() => images().findIndex((r) => r.media_id === currentId()));
  const current = createMemo<MediaRow | undefined>(() => images()[index()]);
  const src = createMediaSrc(currentId, () => current() !== undefined);
  const zoom = () => ZOOMS[zoomStep()]!;

  let dialog!: HTMLDialogElement;
  let stageEl!: HTMLDivElement;
  let opener: Element | null = null;

  onMount(() => {
    opener = document.activeElement;
    dialog.showModal();
    const measure = () => setStage({ width: stageEl.clientWidth, height: stageEl.clientHeight });
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(stageEl);
    onCleanup(() => {
      resize.disconnect();
      if (dialog.open) dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    });
  });

  const go = (delta: number) => {
    const list = images();
    const next = list[index() + delta];
    if (!next) return;
    setCurrentId(next.media_id);
    setZoomStep(0);
  };
  const zoomBy = (delta: number) => setZoomStep((s) => Math.max(0, Math.min(ZOOMS.length - 1, s + delta)));

  /** The picture's pixel size on screen: fitted to the stage, times the zoom. */
  const size = createMemo(() => {
    const row = current();
    const { width, height } = stage();
    if (!row?.width || !row.height || !width || !height) return undefined;
    const fit = Math.min(width / row.width, height / row.height, 1);
    return { width: Math.round(row.width * fit * zoom()), height: Math.round(row.height * fit * zoom()) };
  });
  // Zooming in keeps the middle of the picture in the middle.
  createEffect(() => {
    zoom();
    queueMicrotask(() => {
      stageEl.scrollLeft = (stageEl.scrollWidth - stageEl.clientWidth) / 2;
      stageEl.scrollTop = (stageEl.scrollHeight - stageEl.clientHeight) / 2;
    });
  });

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') go(-1);
    else if (e.key === 'ArrowRight') go(1);
    else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-') zoomBy(-1);
    else return;
    e.preventDefault();
  };

  let swipeStart: { x: number; y: number } | undefined;
  const onPointerDown = (e: PointerEvent) => {
    swipeStart = zoom() === 1 ? { x: e.clientX, y: e.clientY } : undefined;
  };
  const onPointerUp = (e: PointerEvent) => {
    if (!swipeStart) return;
    const dx = e.clientX - swipeStart.x;
    const dy = e.clientY - swipeStart.y;
    swipeStart = undefined;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy) * 1.5) go(dx < 0 ? 1 : -1);
  };

  const title = () => current()?.filename ?? 'Picture';
  return (
    <dialog
      ref={dialog}
      class="image-viewer"
      aria-label={`Picture viewer: ${title()}`}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <div class="viewer-bar">
        <p class="viewer-title">
          <span class="viewer-name">{title()}</span>
          <Show when={images().length > 1 && index() >= 0}>
            <span class="viewer-count">
              {index() + 1} of {images().length}
            </span>
          </Show>
        </p>
        <button type="button" class="viewer-button" aria-label="Zoom out" disabled={zoomStep() === 0} onClick={() => zoomBy(-1)}>
          <MediaIcon name="zoomOut" />
        </button>
        <button type="button" class="viewer-button" aria-label="Zoom in" disabled={zoomStep() === ZOOMS.length - 1} onClick={() => zoomBy(1)}>
          <MediaIcon name="zoomIn" />
        </button>
        <Show when={src()}>
          <a class="viewer-button" href={src()} download={current()?.filename} aria-label={`Download ${title()}${current() ? `, ${formatBytes(current()!.size)}` : ''}`}>
            <MediaIcon name="download" />
          </a>
        </Show>
        <button type="button" class="viewer-button" aria-label="Close" onClick={() => props.onClose()} autofocus>
          <MediaIcon name="close" />
        </button>
      </div>
      <div
        ref={stageEl}
        class="viewer-stage"
        classList={{ zoomed: zoom() > 1 }}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onDblClick={() => setZoomStep((s) => (s === 0 ? 2 : 0))}
      >
        <Show when={src()}>
          <img
            class="viewer-image"
            src={src()}
            alt={title()}
            draggable={false}
            style={size() ? { width: `${size()!.width}px`, height: `${size()!.height}px` } : {}}
          />
        </Show>
      </div>
      <Show when={index() > 0}>
        <button type="button" class="viewer-nav prev" aria-label="Previous picture" onClick={() => go(-1)}>
          <MediaIcon name="prev" size={28} />
        </button>
      </Show>
      <Show when={index() >= 0 && index() < images().length - 1}>
        <button type="button" class="viewer-nav next" aria-label="Next picture" onClick={() => go(1)}>
          <MediaIcon name="next" size={28} />
        </button>
      </Show>
    </dialog>
  );
}
