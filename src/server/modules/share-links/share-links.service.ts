import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SHARE_TOKEN_RE, type TSharedDocument, type TShareLink } from '../../../contract/delivery.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { notFound } from '../../http/app-error.ts';
import type { TDocumentsService } from '../documents/index.ts';
import type { TShareLinkRow, TShareLinksRepository } from './share-links.repository.ts';
import type { TAccountStanding } from '../users/index.ts';
import { isoOrNull } from '../api-fields.ts';

const DAY_MS = 24 * 60 * 60_000;
/** The path a link opens: a public page outside the signed-in app. */
export const SHARE_PATH = '/s/';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** Every way a link can be wrong (unknown, expired, revoked) answers the same, so none can be told apart. */
const linkNotFound = () => notFound('Link');

/**
 * Links that open one document without an account. A token is 256 random bits; only its SHA-256
 * is looked up, and the token itself is kept sealed so its owner can copy the link again.
 */
export function createShareLinksService(deps: {
  repository: TShareLinksRepository;
  documents: Pick<TDocumentsService, 'get' | 'pdf'>;
  secrets: TSecretBox;
  publicUrl: string;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
}) {
  const r = deps.repository;
  const urlOf = (row: TShareLinkRow) => `${deps.publicUrl}${SHARE_PATH}${deps.secrets.open(row.tokenEnc)}`;
  const toLink = (row: TShareLinkRow, now = new Date()): TShareLink => ({
    id: row.id,
    url: urlOf(row),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: isoOrNull(row.revokedAt),
    active: !row.revokedAt && row.expiresAt > now,
    views: row.views,
    downloads: row.downloads,
    lastViewedAt: isoOrNull(row.lastViewedAt),
    origin: row.origin,
  });

  async function open(token: string) {
    const row = SHARE_TOKEN_RE.test(token) ? await r.openByHash(hashOf(token), new Date()) : undefined;
    if (!row) throw linkNotFound();
    // The document may have been deleted since; its links went with it (cascade), but a render may race.
    const { document, bytes } = await deps.documents.pdf(row.ownerId, row.documentId).catch(() => {
      throw linkNotFound();
    });
    return { row, document, bytes };
  }

  return {
    /** `by`: the person making it by hand (whose standing it needs), or the email that carries it. */
    async create(ownerId: string, documentId: string, days: number, by: { actorId: string } | 'email'): Promise<TShareLink> {
      if (!(await deps.documents.get(ownerId, documentId))) throw notFound('Document');
      // A link an email carries was made for mail the account was allowed to send.
      if (by !== 'email') await deps.standing.assertMayReach(by.actorId, 'share');
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      const row = await r.insert({
        id: randomUUID(),
        ownerId,
        documentId,
        tokenHash: hashOf(token),
        tokenEnc: deps.secrets.seal(token),
        origin: by === 'email' ? 'email' : 'manual',
        createdAt: now,
        expiresAt: new Date(now.getTime() + days * DAY_MS),
      });
      return toLink(row, now);
    },

    async get(ownerId: string, id: string): Promise<TShareLink> {
      const row = await r.get(ownerId, id);
      if (!row) throw linkNotFound();
      return toLink(row);
    },

    async ofDocument(ownerId: string, documentId: string): Promise<TShareLink[]> {
      if (!(await deps.documents.get(ownerId, documentId))) throw notFound('Document');
      const now = new Date();
      return (await r.ofDocument(ownerId, documentId)).map((row) => toLink(row, now));
    },

    /** Stops a link at once; it answers 404 from the next request on. */
    async revoke(ownerId: string, id: string): Promise<TShareLink> {
      const row = await r.revoke(ownerId, id, new Date());
      if (!row) throw linkNotFound();
      return toLink(row);
    },

    /** What the link's page shows, counted as one view. */
    async view(token: string): Promise<TSharedDocument> {
      const { row, document, bytes } = await open(token);
      await r.countView(row.id, new Date());
      return { name: document.name, createdAt: document.createdAt, expiresAt: row.expiresAt.toISOString(), sizeBytes: bytes.byteLength };
    },

    /** The document's PDF, the same bytes as its owner's download; a download is counted. */
    async pdf(token: string, download: boolean): Promise<{ name: string; bytes: Uint8Array }> {
      const { row, document, bytes } = await open(token);
      if (download) await r.countDownload(row.id);
      return { name: document.name, bytes };
    },

    /** Whether a token opens a document now (the page's HTTP status). */
    async isOpen(token: string): Promise<boolean> {
      return SHARE_TOKEN_RE.test(token) && (await r.openByHash(hashOf(token), new Date())) !== undefined;
    },
  };
}
export type TShareLinksService = ReturnType<typeof createShareLinksService>;
