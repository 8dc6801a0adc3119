import { Show, createMemo, createSignal, onCleanup, onMount } from 'solid-js';
import { formatBytes } from '../../../lib/format';
import { live } from '../../../store/live';
import { laneImages } from '../../../store/models/media';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { MediaIcon } from './MediaIcon';
import { createMediaSrc } from './mediaSrc';
import { useBackCloses } from '../shell/backCloses';

const MAX_ZOOM = 6;
const ZOOM_STEP = 1.5;
const SWIPE_PX = 50;
const SWIPE_DOWN_PX = 90;

interface Point {
  x: number;
  y: number;
}

/**
 * Full-screen pictures of a lane (a modal dialog). The picture fills the screen (small ones are scaled
 * up); zoom with the buttons, + and -, a double click, the mouse wheel or a pinch; drag to look around a
 * zoomed picture. The previous and next picture: buttons, arrow keys, a sideways swipe. Escape, Close or
 * a swipe down returns to the conversation.
 */
export function ImageViewer(props: { lane: string; start: string; onClose: () => void }) {
  const { db } = useIris();
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const images = live(() => laneImages(db, props.lane), [] as MediaRow[]);
  // eslint-disable-next-line solid/reactivity -- the viewer opens on `start`; after that the user moves, the prop is only the first image
  const [currentId, setCurrentId] = createSignal(props.start);
  const [zoom, setZoom] = createSignal(1);
  // Where the picture sits, from the middle of the stage (px); it follows a drag or a pinch.
  const [offset, setOffset] = createSignal<Point>({ x: 0, y: 0 });
  const [dragging, setDragging] = createSignal(false);
  const [stage, setStage] = createSignal({ width: 0, height: 0 });
  const index = createMemo(() => images().findIndex((r) => r.media_id === currentId()));
  const current = createMemo<MediaRow | undefined>(() => images()[index()]);
  const src = createMediaSrc(currentId, () => current() !== undefined);

  let dialog!: HTMLDialogElement;
  let stageEl!: HTMLDivElement;
  let opener: Element | null = null;

  // Back closes the viewer, not the lane under it.
  useBackCloses(() => props.onClose());

  onMount(() => {
    opener = document.activeElement;
    dialog.showModal();
    const measure = () => setStage({ width: stageEl.clientWidth, height: stageEl.clientHeight });
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(stageEl);
    // Not a passive listener: the wheel zooms the picture instead of scrolling anything.
    stageEl.addEventListener('wheel', onWheel, { passive: false });
    onCleanup(() => {
      resize.disconnect();
      stageEl.removeEventListener('wheel', onWheel);
      if (dialog.open) dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    });
  });

  const reset = () => {
    setZoom(1);
    setOffset({ x: 0, y: 0 });
  };
  const go = (delta: number) => {
    const list = images();
    const next = list[index() + delta];
    if (!next) return;
    setCurrentId(next.media_id);
    reset();
  };

  /** The picture's size at zoom 1: as large as the stage allows, small pictures scaled up. */
  const size = createMemo(() => {
    const row = current();
    const { width, height } = stage();
    if (!row?.width || !row.height || !width || !height) return undefined;
    const fit = Math.min(width / row.width, height / row.height);
    return { width: Math.round(row.width * fit), height: Math.round(row.height * fit) };
  });

  /** Keeps a zoomed picture covering the stage where it is larger than it (no black gap at an edge). */
  const clamp = (o: Point, z: number): Point => {
    const box = size();
    const { width, height } = stage();
    if (!box) return { x: 0, y: 0 };
    const maxX = Math.max(0, (box.width * z - width) / 2);
    const maxY = Math.max(0, (box.height * z - height) / 2);
    return { x: Math.max(-maxX, Math.min(maxX, o.x)), y: Math.max(-maxY, Math.min(maxY, o.y)) };
  };

  /** A point of the screen, from the middle of the stage. */
  const fromMiddle = (clientX: number, clientY: number): Point => {
    const r = stageEl.getBoundingClientRect();
    return { x: clientX - (r.left + r.width / 2), y: clientY - (r.top + r.height / 2) };
  };

  /** Zooms to `next`, keeping the picture's point under `at` (from the middle) where it is. */
  const zoomTo = (next: number, at: Point = { x: 0, y: 0 }) => {
    const z = zoom();
    const target = Math.max(1, Math.min(MAX_ZOOM, next));
    const o = offset();
    const k = target / z;
    setZoom(target);
    setOffset(
      target === 1 ? { x: 0, y: 0 } : clamp({ x: at.x - (at.x - o.x) * k, y: at.y - (at.y - o.y) * k }, target),
    );
  };
  const zoomBy = (steps: number) => zoomTo(zoom() * ZOOM_STEP ** steps);

  function onWheel(e: WheelEvent) {
    e.preventDefault();
    // Pixels or lines; a trackpad pinch arrives as a wheel with ctrlKey and small deltas.
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    zoomTo(zoom() * Math.exp(-delta * (e.ctrlKey ? 0.01 : 0.002)), fromMiddle(e.clientX, e.clientY));
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') go(-1);
    else if (e.key === 'ArrowRight') go(1);
    else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-') zoomBy(-1);
    else return;
    e.preventDefault();
  };

  // ---- touch and mouse: pinch, drag, swipe ----
  const pointers = new Map<number, Point>();
  let gesture:
    | { kind: 'swipe'; start: Point }
    | { kind: 'pan'; last: Point }
    | { kind: 'pinch'; distance: number; middle: Point; zoom: number; offset: Point }
    | undefined;

  const pinchStart = () => {
    const [a, b] = [...pointers.values()];
    gesture = {
      kind: 'pinch',
      distance: Math.max(1, Math.hypot(a!.x - b!.x, a!.y - b!.y)),
      middle: fromMiddle((a!.x + b!.x) / 2, (a!.y + b!.y) / 2),
      zoom: zoom(),
      offset: offset(),
    };
  };

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    stageEl.setPointerCapture?.(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) pinchStart();
    else if (pointers.size === 1)
      gesture =
        zoom() > 1
          ? { kind: 'pan', last: { x: e.clientX, y: e.clientY } }
          : { kind: 'swipe', start: { x: e.clientX, y: e.clientY } };
    setDragging(true);
  };

  const onPointerMove = (e: PointerEvent) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (gesture?.kind === 'pinch' && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      const middle = fromMiddle((a!.x + b!.x) / 2, (a!.y + b!.y) / 2);
      const z = Math.max(1, Math.min(MAX_ZOOM, (gesture.zoom * distance) / gesture.distance));
      const k = z / gesture.zoom;
      // The point of the picture that was under the fingers' middle stays under it.
      setZoom(z);
      setOffset(
        clamp(
          {
            x: middle.x - (gesture.middle.x - gesture.offset.x) * k,
            y: middle.y - (gesture.middle.y - gesture.offset.y) * k,
          },
          z,
        ),
      );
    } else if (gesture?.kind === 'pan') {
      const o = offset();
      setOffset(clamp({ x: o.x + e.clientX - gesture.last.x, y: o.y + e.clientY - gesture.last.y }, zoom()));
      gesture.last = { x: e.clientX, y: e.clientY };
    } else if (gesture?.kind === 'swipe') {
      // The picture follows a finger pulling it down, as a hint that letting go closes it.
      const dy = e.clientY - gesture.start.y;
      const dx = e.clientX - gesture.start.x;
      setOffset({ x: 0, y: dy > 0 && dy > Math.abs(dx) ? dy : 0 });
    }
  };

  const onPointerUp = (e: PointerEvent) => {
    const start = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    if (!start) return;
    if (gesture?.kind === 'pinch') {
      // One finger still down after a pinch: it pans from here.
      const rest = [...pointers.values()][0];
      gesture = rest ? { kind: 'pan', last: rest } : undefined;
      if (zoom() <= 1.02) reset();
    } else if (gesture?.kind === 'swipe') {
      const dx = e.clientX - gesture.start.x;
      const dy = e.clientY - gesture.start.y;
      gesture = undefined;
      setOffset({ x: 0, y: 0 });
      if (e.type === 'pointerup') {
        if (dy > SWIPE_DOWN_PX && dy > Math.abs(dx) * 1.5) return props.onClose();
        if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy) * 1.5) go(dx < 0 ? 1 : -1);
      }
    } else gesture = undefined;
    if (pointers.size === 0) setDragging(false);
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
        <button
          type="button"
          class="viewer-button"
          aria-label="Zoom out"
          disabled={zoom() <= 1}
          onClick={() => zoomBy(-1)}
        >
          <MediaIcon name="zoomOut" />
        </button>
        <button
          type="button"
          class="viewer-button"
          aria-label="Zoom in"
          disabled={zoom() >= MAX_ZOOM}
          onClick={() => zoomBy(1)}
        >
          <MediaIcon name="zoomIn" />
        </button>
        <Show when={src()}>
          <a
            class="viewer-button"
            href={src()}
            download={current()?.filename}
            aria-label={`Download ${title()}${current() ? `, ${formatBytes(current()!.size)}` : ''}`}
          >
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
        classList={{ zoomed: zoom() > 1, dragging: dragging() }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDblClick={(e) => zoomTo(zoom() > 1 ? 1 : 2.5, fromMiddle(e.clientX, e.clientY))}
      >
        <Show when={src()}>
          <img
            class="viewer-image"
            src={src()}
            alt={title()}
            draggable={false}
            style={{
              // Size unknown (an older row): at most the stage, until the row learns it.
              ...(size()
                ? { width: `${size()!.width}px`, height: `${size()!.height}px` }
                : { 'max-width': '100%', 'max-height': '100%' }),
              transform: `translate(${offset().x}px, ${offset().y}px) scale(${zoom()})`,
              opacity: zoom() === 1 && offset().y > 0 ? Math.max(0.4, 1 - offset().y / 400) : 1,
            }}
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
