// The scheduler's tables: each schedule's state (next due time, last outcome) and one row per run. A run is unique per
// schedule and due time, so however many instances look at a due schedule, one of them runs it.
export const SCHEDULER_TABLES = [
  `CREATE TABLE IF NOT EXISTS pianificazione (
     nome text PRIMARY KEY,
     cron text NOT NULL,
     attiva boolean,
     prossima timestamptz,
     ultima timestamptz,
     esito text,
     errore text,
     durata_ms integer,
     updated_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS pianificazione_esecuzione (
     id bigserial PRIMARY KEY,
     nome text NOT NULL,
     dovuta timestamptz NOT NULL,
     manuale boolean NOT NULL DEFAULT false,
     stato text NOT NULL CHECK (stato IN ('in_corso', 'riuscita', 'fallita', 'abbandonata')),
     tentativo integer NOT NULL DEFAULT 1,
     istanza text,
     iniziata timestamptz,
     finita timestamptz,
     lease_fino timestamptz,
     riprova_il timestamptz,
     esito text,
     errore text,
     UNIQUE (nome, dovuta))`,
  // The runs to pick up again: interrupted (lease over) or failed and due for a retry.
  `CREATE INDEX IF NOT EXISTS pianificazione_esecuzione_aperte ON pianificazione_esecuzione (stato, lease_fino, riprova_il) WHERE stato IN ('in_corso', 'fallita')`,
];
