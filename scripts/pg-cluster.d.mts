export interface Cluster {
  url: string;
  port: number;
  password: string;
  dir: string;
  pgStart(): void;
  pgStop(mode?: 'fast' | 'immediate'): void;
  restart(): void;
  newDatabase(): string;
  stop(): void;
}
export function findPgBin(): string | undefined;
export function startCluster(opts?: { durable?: boolean }): Promise<Cluster>;
