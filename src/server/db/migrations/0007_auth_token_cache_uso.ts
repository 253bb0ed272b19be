// A session's last use (used_at, written at most once a minute for the idle timeout) must not evict it from every
// instance's cache: only the columns that end a session notify.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE TRIGGER auth_token_cache AFTER UPDATE OF revoked_at, expires_at, token_hash, user_id OR DELETE ON auth_token
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('token', 'token_hash')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE TRIGGER auth_token_cache AFTER UPDATE OR DELETE ON auth_token
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('token', 'token_hash')`.execute(db);
}
