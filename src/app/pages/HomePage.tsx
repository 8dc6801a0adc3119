import { Navigate } from '@solidjs/router';
import { Match, Switch } from 'solid-js';
import { live } from '../../store/live';
import { channelsInOrder } from '../../store/models/channels';
import { getSetting } from '../../store/models/settings';
import { defaultChannelId, laneHref } from '../components/channels/channelTree';
import { useIris } from '../../runtime';

type Home = { kind: 'pair' } | { kind: 'lane'; href: string } | { kind: 'waiting' };

/** `/`: the default lane when paired, pairing when not, and a short wait while the first directory arrives. */
export function HomePage() {
  const { db } = useIris();
  const home = live(async (): Promise<Home> => {
    if (!(await getSetting(db, 'token'))) return { kind: 'pair' };
    const channels = (await channelsInOrder(db)).filter((c) => !c.archived);
    const id = defaultChannelId(channels);
    const target = channels.find((c) => c.chat_id === id) ?? channels.find((c) => c.kind !== 'thread') ?? channels[0];
    return target ? { kind: 'lane', href: laneHref(target) } : { kind: 'waiting' };
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
    </Switch>
  );
}
