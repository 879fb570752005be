import type { SendMailOptions } from 'nodemailer';
import type { TSender } from '../mail/index.ts';
import { safeFileBaseName } from '../../http/send-file.ts';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const longDate = (date: Date) => date.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export type TEmailContent = {
  deliveryId: string;
  /** This installation's host: the Message-ID's right side. */
  host: string;
  sender: TSender;
  to: string[];
  cc: string[];
  subject: string;
  message: string;
  documentName: string;
  /** The PDF itself, a link to it when it is too large to attach, or a signer's link to sign it. */
  document: { pdf: Uint8Array } | { link: { url: string; expiresAt: Date } } | { signLink: { url: string; expiresAt: Date } };
  /** One of a mail merge's messages: a bulk send, so it says how to ask for no more. */
  mailMerge?: boolean;
};

/** The sender's own address: the user's account (through the installation's server) or their own mailbox. */
const senderAddress = (sender: TSender) => sender.replyTo?.address ?? sender.from.address;

/**
 * The email as it goes out: the sender's words as text and as simple HTML (escaped, never
 * interpreted), the PDF attached under the document's name, and a Message-ID made from the
 * delivery, so a retry of the same delivery is recognisably the same message.
 */
export function composeEmail(content: TEmailContent): SendMailOptions {
  const { sender, document } = content;
  const paragraphs = content.message.trim().split(/\n{2,}/);
  const fileName = `${safeFileBaseName(content.documentName)}.pdf`;
  const linkText =
    'link' in document
      ? `${content.documentName} is too large to attach. Open it here until ${longDate(document.link.expiresAt)}:\n${document.link.url}`
      : 'signLink' in document
        ? `Review and sign ${content.documentName} here by ${longDate(document.signLink.expiresAt)}:\n${document.signLink.url}\n\nThis link is yours alone: do not forward it.`
        : '';
  const footer =
    sender.route === 'system' ? `Sent by ${sender.replyTo?.name ?? sender.from.name} (${sender.replyTo?.address ?? sender.from.address}) with Formwork.` : '';
  const text = [content.message.trim(), linkText, footer ? `--\n${footer}` : ''].filter(Boolean).join('\n\n') + '\n';
  const html = [
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f6f7fb;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2430">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e4e6ef;border-radius:12px;padding:28px">',
    ...paragraphs.map((p) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.55">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    'link' in document
      ? `<div style="margin:20px 0 4px;padding:16px;border:1px solid #e4e6ef;border-radius:10px"><p style="margin:0 0 10px;font-size:14px"><strong>${escapeHtml(content.documentName)}</strong> is too large to attach.</p><a href="${escapeHtml(document.link.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:8px;font-size:14px;font-weight:600">Open the PDF</a><p style="margin:10px 0 0;font-size:12px;color:#6b7080">The link works until ${longDate(document.link.expiresAt)}.</p></div>`
      : 'signLink' in document
        ? `<div style="margin:20px 0 4px"><a href="${escapeHtml(document.signLink.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-size:15px;font-weight:600">Review and sign</a><p style="margin:12px 0 0;font-size:12px;color:#6b7080">Sign by ${longDate(document.signLink.expiresAt)}. This link is yours alone: do not forward it.</p></div>`
        : `<p style="margin:20px 0 0;font-size:13px;color:#6b7080">Attached: ${escapeHtml(fileName)}</p>`,
    '</div>',
    footer ? `<p style="max-width:560px;margin:14px auto 0;font-size:12px;color:#8a8fa0;text-align:center">${escapeHtml(footer)}</p>` : '',
    '</body></html>',
  ].join('');
  return {
    from: sender.from,
    ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
    to: content.to,
    ...(content.cc.length > 0 ? { cc: content.cc } : {}),
    subject: content.subject,
    text,
    html,
    messageId: `<${content.deliveryId}@${content.host}>`,
    headers: {
      'X-Formwork-Delivery': content.deliveryId,
      // A request to stop reaches the sender (the user), who decides; there is no one-click
      // address to give, so no List-Unsubscribe-Post either.
      ...(content.mailMerge ? { 'List-Unsubscribe': `<mailto:${encodeURI(senderAddress(sender))}?subject=unsubscribe>` } : {}),
    },
    ...('pdf' in document
      ? {
          attachments: [
            { filename: fileName, content: Buffer.from(document.pdf.buffer, document.pdf.byteOffset, document.pdf.byteLength), contentType: 'application/pdf' },
          ],
        }
      : {}),
  };
}
