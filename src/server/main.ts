// Process entry point: start, and shut down cleanly on SIGINT/SIGTERM so the embedded database stops too.
import { DefinitionError } from '../shared/definitions/compile.ts';
import { startServer } from './server.ts';
import { domains } from './domains/index.ts';
import { StartupError } from './db/embedded.ts';
import { ConfigError, loadConfig } from './config.ts';
import { tuneRuntime } from './runtime.ts';

tuneRuntime();

try {
  // The one read of the environment: a wrong value stops the start with its Italian message.
  const server = await startServer(domains, loadConfig(process.env));
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof DefinitionError) console.error(`Definition error in schemas/${error.message}`);
  else if (error instanceof StartupError || error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
}
