import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail over SMTP_URL; without it, writes each message to DATA_DIR/outbox as an .eml file and logs where. */
export class Mailer {
  private readonly transport: Transporter;
  private readonly usesOutbox: boolean;

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly outboxDir: string,
    private readonly log: Pick<FastifyBaseLogger, 'info'>,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true });
    this.usesOutbox = !smtpUrl;
  }

  async send(mail: Mail): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...mail });
    if (!this.usesOutbox) return;
    await mkdir(this.outboxDir, { recursive: true });
    const file = join(this.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
    await writeFile(file, (info as unknown as { message: Buffer }).message);
    this.log.info({ to: mail.to, subject: mail.subject, file, text: mail.text }, 'mail written to the outbox (no SMTP_URL)');
  }

  close(): void {
    this.transport.close();
  }
}
