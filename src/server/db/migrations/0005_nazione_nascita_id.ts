// Birth countries were free names ('ITALIA', 'ESTERO', 'Germania') on customers and on a collaborator's intermediation
// manager; they are now the country id the quotation and /api/autocomplete/nazione use (src/shared/validators/nazione.ts).
// Names that match no country are kept as they are: the form then asks the clerk to pick the country.
import { sql, type Kysely, type RawBuilder } from 'kysely';

/** The id of a stored name: '1', '2', a country's cadastral code (the one in force first), else null. */
function idOf(name: RawBuilder<unknown>, countries: boolean): RawBuilder<string | null> {
  const byName = countries
    ? sql`(SELECT n.codice_catastale FROM ref_nazione n WHERE upper(n.nome) = upper(trim(${name})) ORDER BY n.data_fine IS NULL DESC LIMIT 1)`
    : sql`NULL`;
  return sql<string | null>`CASE
    WHEN ${name} ~ '^(1|2|Z[0-9]{3})$' THEN NULL
    WHEN upper(trim(${name})) = 'ITALIA' THEN '1'
    WHEN upper(trim(${name})) = 'ESTERO' THEN '2'
    ELSE ${byName} END`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // The countries are loaded after the migrations: on a first start there are none yet, and no records either.
  const countries = Boolean((await sql<{ t: string | null }>`SELECT to_regclass('ref_nazione')::text AS t`.execute(db)).rows[0]?.t);
  const cliente = idOf(sql.ref('nazioneNascita'), countries);
  // Only the rows that change: an id already stored, or a name without a country, is left alone.
  await sql`UPDATE cliente SET "nazioneNascita" = ${cliente} WHERE "nazioneNascita" IS NOT NULL AND ${cliente} IS NOT NULL`.execute(db);
  const responsabile = idOf(sql`"responsabileIntermediazione"->>'nazioneNascita'`, countries);
  await sql`UPDATE collaboratore
    SET "responsabileIntermediazione" = jsonb_set("responsabileIntermediazione", '{nazioneNascita}', to_jsonb(${responsabile}))
    WHERE jsonb_typeof("responsabileIntermediazione"->'nazioneNascita') = 'string' AND ${responsabile} IS NOT NULL`.execute(db);
}

export async function down(): Promise<void> {
  // The names are not restored: the ids name the same countries.
}
