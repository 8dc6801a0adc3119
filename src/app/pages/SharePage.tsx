import { useNavigate } from '@solidjs/router';
import { For, Show } from 'solid-js';
import { addToast } from '../../store/models/toasts';
import { ERROR_TOAST_KIND } from '../components/status/toastWrites';
import { stageAttachment } from '../../media/outgoing';
import { live } from '../../store/live';
import { channelsInOrder } from '../../store/models/channels';
import { channelTree, laneHref } from '../components/channels/channelTree';
import { getPendingShare, takeShareIntoDraft } from '../../store/models/share';
import { shareToText } from '../../share/pendingShare';
import { useIris } from '../../runtime';
import './SharePage.css';

/** Something was shared into Iris from another app: pick the lane whose composer gets it. */
export default function SharePage() {
  const { db } = useIris();
  const navigate = useNavigate();
  const share = live(() => getPendingShare(db), undefined);
  // As the channel list orders them: each channel with its own threads under it.
  const lanes = live(async () => {
    const tree = channelTree(await channelsInOrder(db), false);
    return tree.flatMap(({ channel, threads }) =>
      [channel, ...threads].map((c) => ({
        lane: c.chat_id,
        name: c.name,
        href: laneHref(c),
        thread: c !== channel,
      })),
    );
  }, []);

  async function shareInto(lane: string, href: string) {
    const pending = share();
    if (!pending) return;
    const text = shareToText(pending);
    // Shared files become the lane's attachments; one that cannot be attached is named in a toast.
    for (const file of pending.files) {
      try {
        await stageAttachment(db, new File([file.blob], file.name, { type: file.type }), { lane });
      } catch (e) {
        await addToast(db, {
          kind: ERROR_TOAST_KIND,
          title: 'Not attached',
          body: e instanceof Error ? e.message : String(e),
          lane,
          ts: Date.now(),
        });
      }
    }
    await takeShareIntoDraft(db, lane, text);
    navigate(href, { replace: true });
  }

  return (
    <main class="share-page">
      <div class="card share-card">
        <h1>Share to Iris</h1>
        <Show when={share()} fallback={<p>Nothing is waiting to be shared.</p>}>
          {(pending) => (
            <>
              {/* A file alone has no words to show. */}
              <Show when={shareToText(pending())}>
                {(text) => (
                  <blockquote class="share-preview" dir="auto">
                    {text()}
                  </blockquote>
                )}
              </Show>
              <Show when={pending().files.length > 0}>
                <p class="share-files">
                  {pending().files.length} file{pending().files.length === 1 ? '' : 's'}:{' '}
                  {pending()
                    .files.map((f) => f.name)
                    .join(', ')}
                </p>
              </Show>
              <h2 id="share-lanes">Send it to</h2>
              <ul class="share-lanes" aria-labelledby="share-lanes">
                <For each={lanes()}>
                  {(item) => (
                    <li>
                      <button
                        class="button secondary"
                        classList={{ thread: item.thread }}
                        type="button"
                        onClick={() => void shareInto(item.lane, item.href)}
                      >
                        {item.name}
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </>
          )}
        </Show>
      </div>
    </main>
  );
}
