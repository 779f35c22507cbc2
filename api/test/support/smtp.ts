import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP receiver on a free port; collects what it is sent. */
export async function startSmtpReceiver() {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, inbox, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The reset link inside a received mail (quoted-printable soft breaks undone). */
export function resetLinkIn(mail: ReceivedMail): URL {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/signin\/password-reset\?[^\s"<]+/.exec(text);
  if (!match) throw new Error(`no reset link in mail:\n${mail.raw}`);
  return new URL(match[0].replace(/&amp;/g, '&'));
}
