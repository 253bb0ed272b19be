// Chooses the motor insurer implementation: MOTOR_INSURER_ADAPTER=sandbox (default) or http.
import { HttpMotorInsurer, httpMotorConfig, type MotorConfig } from './http.ts';
import { SandboxMotorInsurer } from './sandbox.ts';
import type { MotorInsurer } from './shapes.ts';

export function motorInsurer(config: MotorConfig): MotorInsurer {
  return config.MOTOR_INSURER_ADAPTER === 'http' ? new HttpMotorInsurer(httpMotorConfig(config)) : new SandboxMotorInsurer();
}
