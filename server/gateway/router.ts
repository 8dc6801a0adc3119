// Which handler answers which client frame. The switch is checked by the compiler against ClientFrame.
import type { ClientFrame } from '../../src/protocol';
import * as channels from './channels';
import * as chat from './chat';
import type { ClientSession } from './clientsession';
import * as history from './history';
import * as session from './session';

export function route(client: ClientSession, frame: ClientFrame): void {
  const { agent } = client.ctx;
  switch (frame.type) {
    case 'hello':
      return; // handled by the connection before anything else
    case 'ping':
      return session.ping(client, frame);
    case 'sync':
      if (client.ctx.raw.quirks?.noSync) return client.error('unsupported', 'Unknown frame type "sync".');
      return session.sync(client, frame);
    case 'fcm.register':
      return session.fcmRegister(client, frame);
    case 'message.send':
      return chat.send(client, frame);
    case 'read.receipt':
      return chat.readReceipt(client, frame);
    case 'message.delete':
      return chat.deleteMessages(client, frame);
    case 'history':
      return history.page(client, frame);
    case 'search':
      return history.search(client, frame);
    case 'channel.create':
      return channels.create(client, frame);
    case 'channel.rename':
      return channels.rename(client, frame);
    case 'channel.set_default':
      return channels.setDefault(client, frame);
    case 'channel.delete':
      return channels.archive(client, frame);
    case 'channel.favorite':
      return channels.favorite(client, frame);
    case 'channel.icon':
      return channels.icon(client, frame);
    case 'channel.list':
      return channels.list(client, frame);
    case 'commands.catalog':
      if (client.ctx.raw.quirks?.noCatalog)
        return client.error('unsupported', 'Unknown frame type "commands.catalog".');
      return client.send({ ...agent.catalog(), id: frame.id });
    case 'commands.complete':
      if (client.ctx.raw.quirks?.noCatalog)
        return client.error('unsupported', 'Unknown frame type "commands.complete".');
      return client.send({ ...agent.complete(frame.payload.prefix), id: frame.id });
    case 'agent.stop':
      return agent.stop(client, frame);
    case 'agent.steer':
      return agent.steer(client, frame);
    case 'picker.select':
      return agent.select(client, frame);
    case 'media.upload.start':
      return client.media.start(frame);
    case 'media.upload.end':
      return client.media.end(frame);
    case 'media.pull':
      return client.media.pull(frame);
  }
}
