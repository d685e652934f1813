import {
  type BinaryNode,
  encodeBigEndian,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  KEY_BUNDLE_TYPE,
  S_WHATSAPP_NET,
} from '@whiskeysockets/baileys';
import { userJid } from '#shared/phone/jid';
import { digitsOf } from '#shared/phone/number';
import type { PreKeyBundle } from './sim-device.ts';
import type { Companion, FakeUser } from './users.ts';

/** Who is who on the network, as the IQ answers need it. */
export interface Directory {
  userOf(jid: string): FakeUser | undefined;
  /** A pre-key bundle for the device `jid` names (uses up a one-time pre-key). */
  bundleOf(jid: string): PreKeyBundle | undefined;
}

export const result = (iq: BinaryNode, content?: BinaryNode[]): BinaryNode => ({
  tag: 'iq',
  attrs: { from: S_WHATSAPP_NET, type: 'result', id: iq.attrs.id ?? '' },
  ...(content ? { content } : {}),
});

const node = (
  tag: string,
  attrs: Record<string, string> = {},
  content?: BinaryNode['content'],
): BinaryNode => ({
  tag,
  attrs,
  ...(content === undefined ? {} : { content }),
});

const children = (n: BinaryNode | undefined) => (Array.isArray(n?.content) ? n.content : []);

/**
 * Answers the IQs a Baileys client sends in ordinary use. Unknown ones get an empty result: an
 * unanswered IQ would leave the client waiting 60 s.
 */
export function answerIq(iq: BinaryNode, me: Companion | undefined, dir: Directory): BinaryNode {
  const first = children(iq)[0];
  switch (iq.attrs.xmlns) {
    case 'usync':
      return usync(iq, dir);
    case 'encrypt':
      return encrypt(iq, first, me, dir);
    case 'abt':
      return result(iq, [node('props', { protocol: '1' })]);
    case 'blocklist':
      return result(iq, [node('list')]);
    case 'privacy':
      if (iq.attrs.type !== 'get' || first?.tag !== 'privacy') return result(iq);
      return result(iq, [
        node(
          'privacy',
          {},
          ['readreceipts', 'last', 'online', 'profile', 'status', 'groupadd', 'calladd'].map((name) =>
            node('category', { name, value: 'all' }),
          ),
        ),
      ]);
    case 'w:sync:app:state':
      // Every collection asked for, empty and complete; one left out would be asked for forever.
      return result(iq, [
        node(
          'sync',
          {},
          getBinaryNodeChildren(first, 'collection').map((c) =>
            node('collection', { name: c.attrs.name ?? '', version: c.attrs.version ?? '0' }),
          ),
        ),
      ]);
    case 'w:g2':
      return first?.tag === 'participating' ? result(iq, [node('groups')]) : result(iq);
    default:
      return result(iq);
  }
}

function encrypt(iq: BinaryNode, first: BinaryNode | undefined, me: Companion | undefined, dir: Directory) {
  if (iq.attrs.type === 'get' && first?.tag === 'count')
    return result(iq, [node('count', { value: String(me?.keys.preKeys.size ?? 0) })]);
  if (iq.attrs.type === 'get' && first?.tag === 'digest') return result(iq, [node('digest')]);
  if (iq.attrs.type === 'get' && first?.tag === 'key') {
    const users = getBinaryNodeChildren(first, 'user').map(({ attrs: { jid = '' } }) => {
      const bundle = dir.bundleOf(jid);
      if (!bundle) return node('user', { jid }, [node('error', { code: '404', text: 'item-not-found' })]);
      return node('user', { jid }, bundleNodes(bundle));
    });
    return result(iq, [node('list', {}, users)]);
  }
  if (iq.attrs.type === 'set' && me) {
    // Pre-key upload (`list`) or signed pre-key rotation (`rotate`).
    for (const key of getBinaryNodeChildren(getBinaryNodeChild(iq, 'list'), 'key')) {
      const id = getBinaryNodeChildBuffer(key, 'id');
      const value = getBinaryNodeChildBuffer(key, 'value');
      if (id && value) me.keys.preKeys.set(Buffer.from(id).readUIntBE(0, id.length), Buffer.from(value));
    }
    const skey = getBinaryNodeChild(getBinaryNodeChild(iq, 'rotate') ?? iq, 'skey');
    const id = getBinaryNodeChildBuffer(skey, 'id');
    const value = getBinaryNodeChildBuffer(skey, 'value');
    const signature = getBinaryNodeChildBuffer(skey, 'signature');
    if (id && value && signature)
      me.keys.signedPreKey = { keyId: Buffer.from(id).readUIntBE(0, id.length), public: value, signature };
  }
  return result(iq);
}

function bundleNodes(b: PreKeyBundle): BinaryNode[] {
  return [
    node('registration', {}, encodeBigEndian(b.registrationId)),
    node('type', {}, KEY_BUNDLE_TYPE),
    node('identity', {}, b.identity),
    node('skey', {}, [
      node('id', {}, encodeBigEndian(b.signedPreKey.keyId, 3)),
      node('value', {}, b.signedPreKey.public),
      node('signature', {}, b.signedPreKey.signature),
    ]),
    ...(b.preKey
      ? [
          node('key', {}, [
            node('id', {}, encodeBigEndian(b.preKey.keyId, 3)),
            node('value', {}, b.preKey.public),
          ]),
        ]
      : []),
  ];
}

/**
 * USync: for each user asked about, the protocols asked for. Device lists name the phone (0) and
 * every linked companion; `lid` answers with the user's LID, which Baileys needs to fetch sessions.
 */
function usync(iq: BinaryNode, dir: Directory): BinaryNode {
  const sync = getBinaryNodeChild(iq, 'usync');
  const protocols = children(getBinaryNodeChild(sync, 'query')).map((p) => p.tag);
  const users = getBinaryNodeChildren(getBinaryNodeChild(sync, 'list'), 'user').map((u) => {
    const phone = getBinaryNodeChild(u, 'contact')?.content;
    const jid = u.attrs.jid ?? (phone ? userJid(digitsOf(Buffer.from(phone as Uint8Array).toString())) : '');
    const found = dir.userOf(jid);
    const answers = protocols.flatMap((p): BinaryNode[] => {
      if (p === 'devices') {
        const devices = found
          ? [
              node('device', { id: '0' }),
              ...[...found.companions.values()].map((c) =>
                node('device', { id: String(c.device), 'key-index': String(c.keyIndex) }),
              ),
            ]
          : [];
        return [node('devices', {}, [node('device-list', {}, devices)])];
      }
      if (p === 'lid') return found ? [node('lid', { val: found.lidJid() })] : [];
      if (p === 'contact') return [node('contact', { type: found ? 'in' : 'out' })];
      return [];
    });
    return node('user', { jid }, answers);
  });
  return result(iq, [node('usync', { ...sync?.attrs }, [node('list', {}, users)])]);
}
