// Which handler answers which client frame. The switch is checked by the compiler against ClientFrame.
import type { ClientFrame } from '../../src/protocol';
import * as channels from './channels';
import * as chat from './chat';
import type { Connection } from './connection';
import * as history from './history';
import * as session from './session';

export function route(conn: Connection, frame: ClientFrame): void {
  const { agent } = conn.ctx;
  switch (frame.type) {
    case 'hello':
      return; // handled by the connection before anything else
    case 'ping':
      return session.ping(conn, frame);
    case 'sync':
      return session.sync(conn, frame);
    case 'fcm.register':
      return session.fcmRegister(conn, frame);
    case 'message.send':
      return chat.send(conn, frame);
    case 'read.receipt':
      return chat.readReceipt(conn, frame);
    case 'message.delete':
      return chat.deleteMessages(conn, frame);
    case 'history':
      return history.page(conn, frame);
    case 'search':
      return history.search(conn, frame);
    case 'channel.create':
      return channels.create(conn, frame);
    case 'channel.rename':
      return channels.rename(conn, frame);
    case 'channel.set_default':
      return channels.setDefault(conn, frame);
    case 'channel.delete':
      return channels.archive(conn, frame);
    case 'channel.favorite':
      return channels.favorite(conn, frame);
    case 'channel.icon':
      return channels.icon(conn, frame);
    case 'channel.list':
      return channels.list(conn, frame);
    case 'commands.catalog':
      return conn.send({ ...agent.catalog(), id: frame.id });
    case 'commands.complete':
      return conn.send({ ...agent.complete(frame.payload.prefix), id: frame.id });
    case 'agent.stop':
      return agent.stop(conn, frame);
    case 'agent.steer':
      return agent.steer(conn, frame);
    case 'picker.select':
      return agent.select(conn, frame);
    case 'media.upload.start':
      return conn.media.start(frame);
    case 'media.upload.end':
      return conn.media.end(frame);
    case 'media.pull':
      return conn.media.pull(frame);
  }
}
