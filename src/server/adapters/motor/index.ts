// Chooses the motor insurer implementation: MOTOR_INSURER_ADAPTER=sandbox (default) or http.
import { HttpMotorInsurer, httpConfigFromEnv } from './http.ts';
import { SandboxMotorInsurer } from './sandbox.ts';
import type { MotorInsurer } from './shapes.ts';

export function motorInsurerFromEnv(env: NodeJS.ProcessEnv = process.env): MotorInsurer {
  const mode = env.MOTOR_INSURER_ADAPTER ?? 'sandbox';
  if (mode === 'sandbox') return new SandboxMotorInsurer();
  if (mode === 'http') return new HttpMotorInsurer(httpConfigFromEnv(env));
  throw new Error(`MOTOR_INSURER_ADAPTER=${mode}: use sandbox or http`);
}
