// A real gRPC server (@grpc/grpc-js) on 127.0.0.1 serving the standard health service of grpc-health-check.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

export interface GrpcFake {
  port: number;
  health: HealthImplementation;
  close(): Promise<void>;
}

/** A grpc-js server on 127.0.0.1 with the standard health service, plain text unless given a certificate. */
export async function startGrpcServer(
  statuses: Record<string, 'SERVING' | 'NOT_SERVING' | 'UNKNOWN'>,
  tls?: { key: string; cert: string },
  withHealth = true,
): Promise<GrpcFake> {
  const server = new Server();
  const health = new HealthImplementation(statuses);
  if (withHealth) health.addToServer(server);
  const credentials = tls
    ? ServerCredentials.createSsl(null, [{ private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) }])
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    port,
    health,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())).then(() => server.forceShutdown()),
  };
}
