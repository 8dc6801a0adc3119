import { Navigate } from '@solidjs/router';
import { Match, Switch } from 'solid-js';
import { live } from '../../store/live';
import { listedDirectory } from '../../store/models/channels';
import { getSetting } from '../../store/models/settings';
import { defaultChannelId, laneHref } from '../components/channels/channelTree';
import { useIris } from '../../runtime';

type Home = { kind: 'pair' } | { kind: 'lane'; href: string } | { kind: 'waiting' } | { kind: 'empty' };

/**
 * `/`: the default lane when paired, pairing when not, a short wait while the first directory arrives,
 * and what to do when the gateway has listed no channel at all.
 */
export function HomePage() {
  const { db } = useIris();
  const home = live(async (): Promise<Home> => {
    if (!(await getSetting(db, 'token'))) return { kind: 'pair' };
    const { listed, channels } = await listedDirectory(db);
    const id = defaultChannelId(channels);
    const target = channels.find((c) => c.chat_id === id) ?? channels.find((c) => c.kind !== 'thread') ?? channels[0];
    if (target) return { kind: 'lane', href: laneHref(target) };
    // The gateway listed its directory and it holds no channel: waiting would never end.
    return listed ? { kind: 'empty' } : { kind: 'waiting' };
  }, undefined);

  return (
    <Switch>
      <Match when={home()?.kind === 'pair'}>
        <Navigate href="/pair" />
      </Match>
      <Match when={home()?.kind === 'lane' && home()}>
        {(h) => <Navigate href={(h() as { href: string }).href} />}
      </Match>
      <Match when={home()?.kind === 'waiting'}>
        <main class="home-waiting">
          <p>Waiting for the gateway’s channels…</p>
        </main>
      </Match>
      <Match when={home()?.kind === 'empty'}>
        <main class="home-waiting">
          <p>This gateway has no channels yet. Start one with “New channel” in the channel list.</p>
        </main>
      </Match>
    </Switch>
  );
}
