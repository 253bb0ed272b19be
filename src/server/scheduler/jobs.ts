// The jobs the engine itself schedules (by name in schemas/_shared/pianificazioni.json); a domain's jobs join them
// when a domain needs one.
import type { AppConfig } from '../context.ts';
import { pruneHistory, sealHistory } from '../storico/servizio.ts';
import { deliveryJob } from '../mail/outbox.ts';
import type { Job } from './scheduler.ts';

export function engineJobs(config: Pick<AppConfig, 'HISTORY_RETENTION_DAYS'> & Partial<Pick<AppConfig, 'SMTP_URL' | 'MAIL_FROM'>>): Map<string, Job> {
  return new Map<string, Job>([
    // The outbox delivered by SMTP (it was a polling loop of each instance: now one run a minute, its outcome visible).
    ['consegna_posta', deliveryJob({ SMTP_URL: config.SMTP_URL ?? '', MAIL_FROM: config.MAIL_FROM ?? '' })],
    // The change history's new entries sealed into its chain, off the writes' path.
    ['sigillo_storico', async ({ trx }) => {
      const sealed = await sealHistory(trx);
      return sealed === 1 ? '1 voce sigillata.' : `${sealed} voci sigillate.`;
    }],
    // Retention of the change history: the chain's base moves to the last entry removed, so the rest still verifies.
    ['potatura_storico', async ({ trx, now }) => {
      const days = config.HISTORY_RETENTION_DAYS;
      if (!days) return 'Conservazione senza limite (HISTORY_RETENTION_DAYS = 0): nessuna voce rimossa.';
      const removed = await pruneHistory(trx, days, now);
      return `${removed} ${removed === 1 ? 'voce rimossa' : 'voci rimosse'} (più vecchie di ${days} giorni).`;
    }],
  ]);
}
