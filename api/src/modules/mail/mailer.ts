import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailerOptions {
  /**
   * Whether an outbox mail's text goes into the log too (handy while developing). Never under production: a reset mail
   * carries a link that signs its holder in.
   */
  logsBodies: boolean;
}

/** Only the server's user may read the outbox: its mails hold reset links. */
const OUTBOX_FOLDER_MODE = 0o700;
const OUTBOX_FILE_MODE = 0o600;

/** Sends mail over SMTP_URL; without it, writes each message to DATA_DIR/outbox as an .eml file and logs where. */
export class Mailer {
  private readonly transport: Transporter;
  private readonly usesOutbox: boolean;
  private outboxReady: Promise<void> | null = null;

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly outboxDir: string,
    private readonly log: Pick<FastifyBaseLogger, 'info'>,
    private readonly options: MailerOptions,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true });
    this.usesOutbox = !smtpUrl;
  }

  async send(mail: Mail): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...mail });
    if (!this.usesOutbox) return;
    await this.prepareOutbox();
    const file = join(this.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
    await writeFile(file, (info as unknown as { message: Buffer }).message, { mode: OUTBOX_FILE_MODE });
    const shown = { to: mail.to, subject: mail.subject, file };
    this.log.info(this.options.logsBodies ? { ...shown, text: mail.text } : shown, 'mail written to the outbox (no SMTP_URL)');
  }

  /** The folder, made once per process; one an older version made readable to others is closed too. */
  private prepareOutbox(): Promise<void> {
    this.outboxReady ??= (async () => {
      await mkdir(this.outboxDir, { recursive: true, mode: OUTBOX_FOLDER_MODE });
      await chmod(this.outboxDir, OUTBOX_FOLDER_MODE);
    })().catch((error: unknown) => {
      this.outboxReady = null;
      throw error;
    });
    return this.outboxReady;
  }

  close(): void {
    this.transport.close();
  }
}
