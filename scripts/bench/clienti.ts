// Generated customers for the benchmarks (bench-api, bench-cerca): plausible Italian names, codici fiscali, e-mails.

export const SURNAMES = [
  'ROSSI', 'RUSSO', 'FERRARI', 'ESPOSITO', 'BIANCHI', 'ROMANO', 'COLOMBO', 'RICCI', 'MARINO', 'GRECO', 'BRUNO', 'GALLO', 'CONTI',
  'DE LUCA', 'MANCINI', 'COSTA', 'GIORDANO', 'RIZZO', 'LOMBARDI', 'MORETTI', 'BARBIERI', 'FONTANA', 'SANTORO', 'MARIANI', 'RINALDI',
  'CARUSO', 'FERRARA', 'GALLI', 'MARTINI', 'LEONE', 'LONGO', 'GENTILE', 'MARTINELLI', 'VITALE', 'LOMBARDO', 'SERRA', 'COPPOLA',
  'DE SANTIS', "D'ANGELO", 'MARCHETTI', 'PARISI', 'VILLA', 'CONTE', 'FERRARO', 'FERRI', 'FABBRI', 'BIANCO', 'MARINI', 'GRASSO',
  'VALENTINI', 'MESSINA', 'SALA', 'DE ANGELIS', 'GATTI', 'PELLEGRINI', 'PALUMBO', 'SANNA', 'FARINA', 'RIZZI', 'MONTI', 'CATTANEO',
  'MORELLI', 'AMATO', 'SILVESTRI', 'MAZZA', 'TESTA', 'GRASSI', 'PELLEGRINO', 'CARBONE', 'GIULIANI', 'BENEDETTI', 'BARONE',
  'ROSSETTI', 'CAPUTO', 'MONTANARI', 'GUERRA', 'PALMIERI', 'BERNARDI', 'MARTINO', 'FIORE', 'DE ROSA', 'FERRETTI', 'BELLINI',
  'BASILE', 'RIVA', 'DONATI', 'PIRAS', 'VITALI', 'BATTAGLIA', 'SARTORI', 'NERI', 'COSTANTINI', 'MILANI', 'PAGANO', 'RUGGIERO',
  'SORRENTINO', "D'AMICO", 'ORLANDO', 'NEGRI', 'MAZZOLENI',
];
export const MALE = ['MARCO', 'GIUSEPPE', 'GIOVANNI', 'ANTONIO', 'LUCA', 'FRANCESCO', 'ALESSANDRO', 'ANDREA', 'MATTEO', 'LORENZO', 'ROBERTO',
  'STEFANO', 'PAOLO', 'MARIO', 'DAVIDE', 'SIMONE', 'FEDERICO', 'RICCARDO', 'SALVATORE', 'VINCENZO', 'MASSIMO', 'FABIO', 'CLAUDIO', 'DANIELE'];
export const FEMALE = ['MARIA', 'ANNA', 'GIULIA', 'FRANCESCA', 'SARA', 'CHIARA', 'LAURA', 'VALENTINA', 'ELENA', 'ALESSANDRA', 'MARTINA',
  'SILVIA', 'FEDERICA', 'PAOLA', 'ROBERTA', 'GIOVANNA', 'ELISA', 'CRISTINA', 'MONICA', 'BARBARA', 'SOFIA', 'AURORA', 'GIORGIA'];
export const COMPANY = ['SRL', 'SPA', 'SNC', 'SAS', 'COSTRUZIONI SRL', 'TRASPORTI SRL', 'IMMOBILIARE SRL', 'CONSULTING SRL', 'E FIGLI SNC'];
export const STREETS = ['VIA ROMA', 'VIA GARIBALDI', 'CORSO ITALIA', 'VIA MAZZINI', 'VIA VERDI', 'PIAZZA DEL POPOLO', 'VIA DANTE', 'VIALE EUROPA',
  'VIA CAVOUR', 'VIA MARCONI', 'VIA DELLA REPUBBLICA', 'VIA XX SETTEMBRE'];
export const PROVINCES = ['RM', 'MI', 'NA', 'TO', 'PA', 'BA', 'FI', 'BO', 'GE', 'VE', 'CT', 'VR', 'BS', 'PD', 'BG', 'SA', 'LE', 'CA', 'TA', 'PG'];
export const DOMAINS = ['gmail.com', 'libero.it', 'hotmail.it', 'yahoo.it', 'alice.it', 'outlook.com', 'tiscali.it', 'virgilio.it'];

// One set-based statement: random values are drawn once per row in a MATERIALIZED CTE, then shaped into a plausible customer.
export const LOAD_SQL = `
WITH s AS MATERIALIZED (
  SELECT g,
         random() AS rt, random() AS rs, random() AS ra, random() AS re,
         $2::text[] AS sn, $3::text[] AS mn, $4::text[] AS fn, $5::text[] AS co, $6::text[] AS st, $7::text[] AS pr, $8::text[] AS dm,
         1 + floor(power(random(), 1.7) * cardinality($2::text[]))::int AS isn,
         1 + floor(random() * cardinality($3::text[]))::int AS imn,
         1 + floor(random() * cardinality($4::text[]))::int AS ifn,
         1 + floor(random() * cardinality($5::text[]))::int AS ico,
         1 + floor(random() * cardinality($6::text[]))::int AS ist,
         1 + floor(random() * cardinality($7::text[]))::int AS ipr,
         1 + floor(random() * cardinality($8::text[]))::int AS idm,
         date '1935-01-01' + floor(random() * 25000)::int AS nascita,
         now() - random() * interval '8 years' AS creato
  FROM generate_series(1, $1::int) g
), t AS (
  SELECT s.*,
         CASE WHEN rt < 0.70 THEN 'RETAIL' WHEN rt < 0.85 THEN 'PROFESSIONISTA' WHEN rt < 0.95 THEN 'CORPORATE'
              WHEN rt < 0.98 THEN 'CONDOMINIO' ELSE 'PUBBLICA_AMMINISTRAZIONE' END AS tipo,
         sn[isn] AS cognome
  FROM s
), u AS (
  SELECT t.*,
         CASE WHEN tipo IN ('RETAIL', 'PROFESSIONISTA') THEN CASE WHEN rs < 0.52 THEN 'M' ELSE 'F' END ELSE 'A' END AS sesso
  FROM t
)
INSERT INTO cliente (tipo, sesso, nome, cognome, "dataNascita", cf, piva, email, cell, "residenzaIndirizzo", "residenzaCivico",
                     "residenzaCap", "residenzaProv", collaboratore_id, attivo, note, created_at, updated_at)
SELECT tipo, sesso,
       CASE sesso WHEN 'M' THEN mn[imn] WHEN 'F' THEN fn[ifn] ELSE cognome || ' ' || co[ico] END,
       CASE WHEN sesso = 'A' THEN NULL ELSE cognome END,
       CASE WHEN sesso = 'A' THEN NULL ELSE nascita END,
       CASE WHEN sesso = 'A' THEN lpad((g::bigint * 7919 % 100000000000)::text, 11, '0')
            ELSE rpad(left(regexp_replace(cognome, '[^BCDFGHJKLMNPQRSTVWXYZ]', '', 'g'), 3), 3, 'X')
              || rpad(left(regexp_replace(CASE sesso WHEN 'M' THEN mn[imn] ELSE fn[ifn] END, '[^BCDFGHJKLMNPQRSTVWXYZ]', '', 'g'), 3), 3, 'X')
              || to_char(nascita, 'YY') || substr('ABCDEHLMPRST', extract(month FROM nascita)::int, 1)
              || lpad((extract(day FROM nascita)::int + CASE sesso WHEN 'F' THEN 40 ELSE 0 END)::text, 2, '0')
              || chr(65 + g % 26) || lpad((g % 1000)::text, 3, '0') || chr(65 + (g * 31) % 26) END,
       CASE WHEN sesso = 'A' THEN lpad((g::bigint * 7919 % 100000000000)::text, 11, '0') END,
       CASE WHEN re < 0.12 THEN NULL
            ELSE lower(regexp_replace(CASE sesso WHEN 'M' THEN mn[imn] WHEN 'F' THEN fn[ifn] ELSE co[ico] END || '.' || cognome, '[^A-Za-z.]', '', 'g'))
              || (g % 997) || '@' || dm[idm] END,
       CASE WHEN ra < 0.8 THEN '3' || lpad((g::bigint * 104729 % 1000000000)::text, 9, '0') END,
       st[ist], (1 + g % 180)::text, lpad((10000 + (g * 37) % 89999)::text, 5, '0'), pr[ipr],
       NULL,
       ra > 0.07,
       CASE WHEN re > 0.9 THEN 'Cliente storico, preferisce essere contattato via email.' END,
       creato, creato
FROM u`;

/** LOAD_SQL's parameters for `rows` more customers. */
export const loadParams = (rows: number): unknown[] => [rows, SURNAMES, MALE, FEMALE, COMPANY, STREETS, PROVINCES, DOMAINS];
