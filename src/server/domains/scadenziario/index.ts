// SCADENZIARIO (issue 36): what expires, as one list through the generic renderer. A view over three tables: policies by
// data_scadenza (not those of a historic car, listed from their own table), historic-car policies by scadenza, unpaid
// titles by their due date. The id encodes the kind (record id * 4 + 1, 2, 3) so the three never collide; "days left"
// and the renewal's state are read at query time, so the list is never stale.
import type { FastifyInstance } from 'fastify';
import { defineDomain } from '../../extensions.ts';
import { CONTRAENTE_SQL } from '../../resources/viste.ts';
import { registerRinnovo } from './rinnovo.ts';
import { AVVISI_TABLES, registerAvvisi } from './avvisi.ts';

/** The notices sent for a row's date, oldest first ('Avviso di scadenza 28/11/2026 (a x@y.it)'): next year's expiry starts afresh. */
const AVVISI_SQL = (riga: string, data: string) => `(SELECT string_agg(a.titolo || ' ' || to_char(a.inviato_il AT TIME ZONE 'Europe/Rome', 'DD/MM/YYYY'), '; ' ORDER BY a.id)
      FROM scadenziario_avviso a WHERE a.riga_id = ${riga} AND a.data_riferimento = ${data})`;

function register(app: FastifyInstance): void {
  app.extensions.view('scadenziario', `
    SELECT p.id * 4 + 1 AS id, p.version, 'POLIZZA' AS tipo, p.id AS record_id, p.polizza_numero AS riferimento, p.id AS polizza_id,
           p.cliente_id, ${CONTRAENTE_SQL} AS contraente, p.collaboratore_id, pr.nome AS prodotto, f."ragioneSociale" AS fornitore,
           p.totale_premio_lordo AS premio, p.data_scadenza, p.data_scadenza - d.oggi AS giorni, coalesce(p.tacito_rinnovo, false) AS tacito_rinnovo,
           -- The renewal is the policy that replaces this one (polizza_numero_sostituita): paid, it is renewed; else prepared.
           -- Lost ('Rinnovo perso') unless renewed after all; sent once a prepared renewal's notice went for this expiry.
           CASE WHEN EXISTS (SELECT 1 FROM polizza n WHERE n.polizza_numero_sostituita = p.polizza_numero AND n.stato = 'SALDATA') THEN 'RINNOVATO'
                WHEN p.rinnovo_perso_motivo IS NOT NULL THEN 'PERSO'
                WHEN EXISTS (SELECT 1 FROM polizza n WHERE n.polizza_numero_sostituita = p.polizza_numero)
                  THEN CASE WHEN EXISTS (SELECT 1 FROM scadenziario_avviso a WHERE a.riga_id = p.id * 4 + 1 AND a.data_riferimento = p.data_scadenza)
                            THEN 'INVIATO' ELSE 'PREPARATO' END
                ELSE 'NESSUNO' END AS stato_rinnovo,
           p.rinnovo_perso_motivo AS motivo_perso, c.email, ${AVVISI_SQL('p.id * 4 + 1', 'p.data_scadenza')} AS avvisi
    FROM polizza p
    CROSS JOIN (SELECT (now() AT TIME ZONE 'Europe/Rome')::date AS oggi) d
    LEFT JOIN cliente c ON c.id = p.cliente_id
    LEFT JOIN compagnia f ON f.id = p.fornitore_id
    LEFT JOIN categoria_prodotto pr ON pr.id = p.mandato_prodotto_id
    WHERE p.data_scadenza IS NOT NULL AND p.polizza_auto_storica_id IS NULL AND p.stato IS DISTINCT FROM 'STORNATA'
    UNION ALL
    SELECT s.id * 4 + 2, s.version, 'POLIZZA_AUTO_STORICA', s.id, s.numero_polizza, NULL, s.cliente_id, s.contraente, s.collaboratore_id,
           'Auto storica', NULL, s.premio, s.scadenza, s.scadenza - d.oggi, false,
           -- The renewal of a historic car is a quotation (Bozza rinnovo) naming this policy; it is renewed once that quotation has its policy.
           CASE WHEN EXISTS (SELECT 1 FROM quotazione q JOIN polizza_auto_storica n ON n.quotazione_id = q.id
                             WHERE q.rinnovo_della_polizza->>'numero_polizza' = s.numero_polizza) THEN 'RINNOVATO'
                WHEN s.rinnovo_perso_motivo IS NOT NULL THEN 'PERSO'
                WHEN EXISTS (SELECT 1 FROM quotazione q WHERE q.rinnovo_della_polizza->>'numero_polizza' = s.numero_polizza) THEN 'PREPARATO'
                ELSE 'NESSUNO' END,
           s.rinnovo_perso_motivo, c.email, ${AVVISI_SQL('s.id * 4 + 2', 's.scadenza')}
    FROM polizza_auto_storica s
    CROSS JOIN (SELECT (now() AT TIME ZONE 'Europe/Rome')::date AS oggi) d
    LEFT JOIN cliente c ON c.id = s.cliente_id
    WHERE s.scadenza IS NOT NULL AND NOT coalesce(s.stornata, false)
    UNION ALL
    SELECT t.id * 4 + 3, t.version, 'TITOLO', t.id, concat(p.polizza_numero, ' rata ', t.numero_rata), t.polizza_id, t.cliente_id, ${CONTRAENTE_SQL},
           t.collaboratore_id, pr.nome, f."ragioneSociale", t.premio, t.data_inizio, t.data_inizio - d.oggi, false, 'NON_APPLICABILE',
           NULL, c.email, ${AVVISI_SQL('t.id * 4 + 3', 't.data_inizio')}
    FROM titolo t
    CROSS JOIN (SELECT (now() AT TIME ZONE 'Europe/Rome')::date AS oggi) d
    JOIN polizza p ON p.id = t.polizza_id
    LEFT JOIN cliente c ON c.id = t.cliente_id
    LEFT JOIN compagnia f ON f.id = p.fornitore_id
    LEFT JOIN categoria_prodotto pr ON pr.id = p.mandato_prodotto_id
    WHERE NOT t.saldato AND t.data_inizio IS NOT NULL`);
  app.extensions.migration('scadenziario', AVVISI_TABLES);
  registerRinnovo(app);
  registerAvvisi(app);
}

export default defineDomain('scadenziario', register);
